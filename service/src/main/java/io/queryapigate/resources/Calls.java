package io.queryapigate.resources;

import io.queryapigate.call.CallResult;
import io.queryapigate.call.OutputRequest;
import io.queryapigate.paging.Paging;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.util.List;

/** What the two call resources share: reading the output request, and turning a call's result into a response. */
final class Calls {
    private Calls() {}

    static String first(MultivaluedMap<String, String> args, String key) {
        List<String> values = args.get(key);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** The output request of a POST: body fields win over query-string arguments. */
    static OutputRequest output(Body body, MultivaluedMap<String, String> args, HttpServletRequest request,
            String baseName, Paging paging) {
        String format = body.text("format") != null ? body.text("format") : first(args, "format");
        String page = body.numberText("page") != null ? body.numberText("page") : first(args, "page");
        String pageSize = body.numberText("page_size") != null ? body.numberText("page_size")
                : first(args, "page_size");
        String stream = body.get("stream") != null ? body.get("stream").asText() : first(args, "stream");
        return OutputRequest.parse(format, request.getHeader("Accept"), page, pageSize, stream, baseName, paging);
    }

    /** The response: the body or the stream, paging and caching headers, 304 when the ETag matches. */
    static Response respond(CallResult result, String ifNoneMatch) {
        boolean notModified = result.stream() == null && result.etag() != null && ifNoneMatch != null
                && matches(ifNoneMatch, result.etag());
        Response.ResponseBuilder r;
        if (result.stream() != null) {
            StreamingOutput body = result.stream()::writeTo;
            r = Response.ok(body, result.contentType());
        } else if (notModified) {
            r = Response.notModified(); // no body, so no paging headers either
        } else {
            r = Response.ok(result.body(), result.contentType());
        }
        if (!notModified) {
            if (result.contentDisposition() != null) {
                r.header("Content-Disposition", result.contentDisposition());
            }
            result.headers().forEach(r::header);
        }
        if (result.cache() != null) {
            r.header("X-Cache", result.cache());
            r.header("ETag", result.etag());
            r.header("Cache-Control", "private, max-age=" + result.maxAge());
        }
        return r.build();
    }

    private static boolean matches(String ifNoneMatch, String etag) {
        for (String candidate : ifNoneMatch.split(",")) {
            String c = candidate.strip();
            if (c.equals("*") || c.equals(etag) || c.equals("W/" + etag)) {
                return true;
            }
        }
        return false;
    }
}
