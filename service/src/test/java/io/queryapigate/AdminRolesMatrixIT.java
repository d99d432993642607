package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.auth.AdminRole;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingAdmins;
import io.queryapigate.testing.TestingConfig;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each of the four administrator roles, with a personal admin token, calls one management route per capability (the
 * routes as the running application registered them, each with its {@code @Requires}): where {@link AdminRole} says
 * the role holds the capability, the answer is anything but 403 (and no server error); where it does not, 403
 * {@code role_forbidden}. Bodies are {@code []}, so that a permitted change is refused as a bad body and changes
 * nothing; path names name nothing.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AdminRolesMatrixIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed())
                    .toString());
    private static final Map<Class<? extends Annotation>, String> VERBS = Map.of(GET.class, "GET", POST.class, "POST",
            PUT.class, "PUT", PATCH.class, "PATCH", DELETE.class, "DELETE");

    /** A management route: method and path template. */
    private record Route(String method, String path) {
        String concrete() {
            return path.replaceAll("\\{[^}]+}", "matrix-nothing");
        }

        // GETs first, then the fewest path parameters, then the shortest: the least a call can change
        int cost() {
            return (method.equals("GET") ? 0 : 1000) + 100 * (int) path.chars().filter(c -> c == '{').count()
                    + path.length();
        }
    }

    @Test
    void eachRoleReachesExactlyTheCapabilitiesItHolds() {
        Http http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        Map<Capability, Route> routes = oneRoutePerCapability();
        assertThat(routes.keySet()).as("capabilities with a route here").hasSizeGreaterThan(15)
                .contains(Capability.SELF, Capability.ADMINS_READ, Capability.ADMINS_WRITE, Capability.ACCESS_READ,
                        Capability.ACCESS_WRITE, Capability.SETTINGS_READ, Capability.SECRETS_ROTATE);
        List<String> wrong = new ArrayList<>();
        StringBuilder table = new StringBuilder("capability | route | owner admin developer auditor\n");
        Map<AdminRole, String> tokens = new EnumMap<>(AdminRole.class);
        for (AdminRole role : AdminRole.values()) {
            tokens.put(role, TestingAdmins.create(http, TestingConfig.ADMIN_KEY, "matrix-" + role.label(),
                    role.label()));
        }
        for (Map.Entry<Capability, Route> entry : routes.entrySet()) {
            Capability capability = entry.getKey();
            Route route = entry.getValue();
            table.append(capability.label()).append(" | ").append(route.method()).append(' ').append(route.path())
                    .append(" |");
            for (AdminRole role : AdminRole.values()) {
                boolean holds = role.allows(capability, true);
                Http.Reply reply = http.request(route.method(), route.concrete(), tokens.get(role),
                        route.method().equals("GET") || route.method().equals("DELETE") ? null : "[]");
                String code = reply.status() == 403 ? reply.json().path("code").asText() : "";
                table.append(' ').append(reply.status());
                boolean right = holds ? reply.status() != 403 && reply.status() < 500
                        : reply.status() == 403 && code.equals("role_forbidden");
                if (!right) {
                    wrong.add(role.label() + (holds ? " holds " : " lacks ") + capability.label() + ": "
                            + route.method() + " " + route.concrete() + " answered " + reply.status() + " "
                            + reply.body());
                }
            }
            table.append('\n');
        }
        System.out.println(table);
        assertThat(wrong).isEmpty();
    }

    private static Map<Capability, Route> oneRoutePerCapability() {
        Set<Class<?>> resources = new LinkedHashSet<>(APP.getEnvironment().jersey().getResourceConfig().getClasses());
        APP.getEnvironment().jersey().getResourceConfig().getInstances().forEach(r -> resources.add(r.getClass()));
        Map<Capability, Route> out = new EnumMap<>(Capability.class);
        for (Class<?> resource : resources) {
            Path base = resource.getAnnotation(Path.class);
            if (base == null || !base.value().startsWith("/api/v1")) {
                continue;
            }
            for (Method method : resource.getMethods()) {
                Requires requires = method.getAnnotation(Requires.class);
                String verb = VERBS.entrySet().stream().filter(v -> method.isAnnotationPresent(v.getKey()))
                        .map(Map.Entry::getValue).findFirst().orElse(null);
                if (requires == null || verb == null) {
                    continue;
                }
                Path sub = method.getAnnotation(Path.class);
                Route route = new Route(verb, base.value() + (sub == null ? "" : "/" + sub.value().replaceAll(
                        "^/", "")));
                out.merge(requires.value(), route, (a, b) -> Comparator.comparingInt(Route::cost)
                        .thenComparing(Route::path).compare(a, b) <= 0 ? a : b);
            }
        }
        return out;
    }
}
