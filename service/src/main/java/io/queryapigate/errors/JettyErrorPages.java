package io.queryapigate.errors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.http.RequestIds;
import io.queryapigate.http.SecurityHeaders;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answers Jetty writes itself in the error envelope, instead of its HTML page: a request it refuses before any
 * filter runs (a URI with a control character, {@code Suspicious Path Character}; an unreadable request line; headers
 * too large) and a servlet's {@code sendError} (a method the server's {@code allowedMethods} leave out). They carry the
 * request's id (a new one when no filter ran) and the API's security headers; every method gets a body (Jetty writes
 * one only for GET, POST and HEAD); a 5xx never shows its cause. Installed as the server's error handler.
 */
public final class JettyErrorPages extends ErrorHandler {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final SecurityHeaders security;

    /** @param security the headers every answer gets (HSTS when the request came over HTTPS) */
    public JettyErrorPages(SecurityHeaders security) {
        this.security = security;
        setCacheControl("no-store");
        setShowStacks(false);
        setShowCauses(false);
    }

    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
            Callback callback) throws JsonProcessingException {
        HttpFields.Mutable headers = response.getHeaders();
        String id = headers.get(RequestIds.HEADER);
        if (id == null) { // refused before RequestIdFilter ran, often before the request's headers were read
            id = RequestIds.generate();
            headers.put(RequestIds.HEADER, id);
        }
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("Content-Security-Policy", SecurityHeaders.API_CSP);
        headers.put("Referrer-Policy", "no-referrer");
        security.apply(request, headers);
        headers.put(HttpHeader.CONTENT_TYPE, "application/json");
        String text = code >= 500 || message == null || message.isBlank() ? HttpStatus.getMessage(code) : message;
        byte[] body = JSON.writeValueAsBytes(new ErrorBody(text, ErrorResponses.defaultCode(code), id, null));
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}
