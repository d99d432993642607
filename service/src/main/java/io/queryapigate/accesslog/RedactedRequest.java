package io.queryapigate.accesslog;

import java.util.Set;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Request;

/**
 * A request as the request log may see it, whatever its format asks for ({@code %r}, {@code %q}, {@code %U},
 * {@code %i{...}}, a JSON layout's URL, parameters or headers): the query string's values removed unless the operator
 * keeps them ({@link QueryStrings}), and none of the headers that carry credentials or another page's URL ({@code
 * Authorization}, {@code X-API-Key}, {@code Cookie}, {@code Proxy-Authorization}, {@code X-CSRF-Token}, {@code
 * Referer}).
 */
final class RedactedRequest extends Request.Wrapper {
    static final Set<String> HIDDEN_HEADERS = Set.of("authorization", "x-api-key", "cookie", "proxy-authorization",
            "x-csrf-token", "referer");

    private final boolean keepValues;
    private HttpURI uri;
    private HttpFields headers;

    RedactedRequest(Request wrapped, boolean keepValues) {
        super(wrapped);
        this.keepValues = keepValues;
    }

    @Override
    public HttpURI getHttpURI() {
        if (uri == null) {
            HttpURI original = super.getHttpURI();
            uri = keepValues || original.getQuery() == null ? original
                    : HttpURI.build(original).query(QueryStrings.withoutValues(original.getQuery())).asImmutable();
        }
        return uri;
    }

    @Override
    public HttpFields getHeaders() {
        if (headers == null) {
            HttpFields.Mutable kept = HttpFields.build();
            for (HttpField field : super.getHeaders()) {
                if (!HIDDEN_HEADERS.contains(field.getLowerCaseName())) {
                    kept.add(field);
                }
            }
            headers = kept.asImmutable();
        }
        return headers;
    }
}
