package io.queryapigate.openapi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.glassfish.jersey.server.model.Parameter;
import org.glassfish.jersey.server.model.Resource;
import org.glassfish.jersey.server.model.ResourceMethod;
import org.glassfish.jersey.server.monitoring.ApplicationEvent;
import org.glassfish.jersey.server.monitoring.ApplicationEventListener;
import org.glassfish.jersey.server.monitoring.RequestEvent;
import org.glassfish.jersey.server.monitoring.RequestEventListener;

/**
 * Every route Jersey serves, read from its resource model once the application has started: the management API's
 * part of the OpenAPI document is generated from it, so a route cannot exist without being described.
 */
public final class Routes implements ApplicationEventListener {
    private static final Pattern TEMPLATE = Pattern.compile("\\{\\s*([A-Za-z0-9_]+)\\s*(?::\\s*((?:[^{}]|\\{[^{}]*})*))?}");

    /** One path parameter: its name and, when the template constrains it, the regular expression. */
    public record PathParam(String name, String pattern) {}

    /** One query or header parameter a resource method reads. */
    public record Param(String name, String in, Class<?> type, String defaultValue) {}

    /**
     * One operation.
     *
     * @param method the HTTP method, upper case
     * @param path the OpenAPI path, such as {@code /api/v1/queries/{name}/versions/{version}}
     * @param pathParams the path's parameters, in order
     * @param params the query and header parameters the method reads
     * @param body whether the method reads an entity
     */
    public record Route(String method, String path, List<PathParam> pathParams, List<Param> params, boolean body) {
        /** {@code GET /health}: the key the route's documentation is filed under. */
        public String key() {
            return method + " " + path;
        }
    }

    private volatile List<Route> routes = List.of();

    /** The routes, sorted by path then method; empty until the application has started. */
    public List<Route> all() {
        return routes;
    }

    @Override
    public void onEvent(ApplicationEvent event) {
        if (event.getType() == ApplicationEvent.Type.INITIALIZATION_FINISHED) {
            List<Route> found = new ArrayList<>();
            for (Resource r : event.getResourceModel().getResources()) {
                collect(r, "", found);
            }
            found.sort(Comparator.comparing(Route::path).thenComparing(Route::method));
            routes = List.copyOf(found);
        }
    }

    @Override
    public RequestEventListener onRequest(RequestEvent requestEvent) {
        return null;
    }

    private static void collect(Resource resource, String parent, List<Route> out) {
        String path = join(parent, resource.getPath());
        for (ResourceMethod m : resource.getResourceMethods()) {
            if (m.getHttpMethod() == null || m.getHttpMethod().equals("OPTIONS") || m.getHttpMethod().equals("HEAD")) {
                continue;
            }
            String method = m.getHttpMethod().toUpperCase(Locale.ROOT);
            if (out.stream().anyMatch(r -> r.method().equals(method) && r.path().equals(openApiPath(path)))) {
                continue; // one route with several consumed media types (POST /q/{name} with and without JSON)
            }
            List<Param> params = new ArrayList<>();
            boolean body = false;
            for (Parameter p : m.getInvocable().getParameters()) {
                switch (p.getSource()) {
                    case QUERY -> params.add(new Param(p.getSourceName(), "query", p.getRawType(), p.getDefaultValue()));
                    case HEADER -> params.add(new Param(p.getSourceName(), "header", p.getRawType(), p.getDefaultValue()));
                    case ENTITY -> body = true;
                    default -> { }
                }
            }
            out.add(new Route(method, openApiPath(path), pathParams(path), List.copyOf(params), body));
        }
        for (Resource child : resource.getChildResources()) {
            collect(child, path, out);
        }
    }

    private static String join(String parent, String path) {
        if (path == null || path.isEmpty()) {
            return parent.isEmpty() ? "/" : parent;
        }
        String p = path.startsWith("/") ? path : "/" + path;
        String joined = parent.endsWith("/") ? parent.substring(0, parent.length() - 1) + p : parent + p;
        return joined.length() > 1 && joined.endsWith("/") ? joined.substring(0, joined.length() - 1) : joined;
    }

    /** {@code /q/{version: [0-9]+}} as OpenAPI writes it: {@code /q/{version}}. */
    static String openApiPath(String jaxrs) {
        return TEMPLATE.matcher(jaxrs).replaceAll(m -> Matcher.quoteReplacement("{" + m.group(1) + "}"));
    }

    static List<PathParam> pathParams(String jaxrs) {
        List<PathParam> out = new ArrayList<>();
        Matcher m = TEMPLATE.matcher(jaxrs);
        while (m.find()) {
            String regex = m.group(2) == null ? null : m.group(2).strip();
            out.add(new PathParam(m.group(1), regex == null || regex.isEmpty() ? null : "^" + regex + "$"));
        }
        return List.copyOf(out);
    }
}
