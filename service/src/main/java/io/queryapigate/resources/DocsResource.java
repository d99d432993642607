package io.queryapigate.resources;

import io.queryapigate.docs.Asset;
import io.queryapigate.docs.DocsPage;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import java.util.Optional;

/**
 * {@code GET /docs}: the interactive API docs (public: the page holds no data; the spec it loads asks for a key), and
 * the files it loads: Swagger UI's under {@code /docs/swagger-ui/{version}/}, its own {@code /docs/docs.js} and
 * {@code /docs/docs.css}. Anything else under {@code /docs} is the usual JSON 404. The page's CSP is set where every
 * answer's is ({@code http/SecurityHeaders}).
 */
@Path(DocsPage.PATH)
public class DocsResource {
    private final DocsPage page;

    public DocsResource(DocsPage page) {
        this.page = page;
    }

    @GET
    public Response page() {
        return Response.ok(page.html(), "text/html; charset=utf-8").header(HttpHeaders.CACHE_CONTROL, "no-store")
                .build();
    }

    @GET
    @Path("swagger-ui/{version}/{file}")
    public Response swaggerUi(@PathParam("version") String version, @PathParam("file") String file,
            @Context Request request) {
        return answer(page.swaggerUiFile(version, file), request);
    }

    @GET
    @Path("{file}")
    public Response own(@PathParam("file") String file, @Context Request request) {
        return answer(page.ownFile(file), request);
    }

    private static Response answer(Optional<Asset> found, Request request) {
        Asset asset = found.orElseThrow(NotFoundException::new);
        EntityTag tag = asset.etag() == null ? null : new EntityTag(asset.etag());
        Response.ResponseBuilder unchanged = tag == null ? null : request.evaluatePreconditions(tag);
        Response.ResponseBuilder answer = unchanged != null ? unchanged
                : Response.ok(asset.content().get(), asset.mediaType()).tag(tag);
        return answer.header(HttpHeaders.CACHE_CONTROL, asset.cacheControl()).build();
    }
}
