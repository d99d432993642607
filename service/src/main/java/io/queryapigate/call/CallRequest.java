package io.queryapigate.call;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.auth.Caller;
import java.util.Map;
import java.util.Objects;

/**
 * One call as a resource hands it to the {@link QueryService}: who calls, what (a saved query by name, or ad-hoc
 * SQL), with which parameters, on which connection, within what time, answered how.
 *
 * @param caller the authenticated caller
 * @param requestId the request's id (events, logs, error envelopes)
 * @param queryName the saved query's name, or null for ad-hoc SQL
 * @param version the saved query's version as the caller wrote it, or null for the published one
 * @param sql the ad-hoc SQL, or null for a saved query
 * @param textParams parameters from the query string (saved queries)
 * @param jsonParams parameters from a JSON body ({@code params}), or null
 * @param connection the connection named by the caller, or null (saved queries: their own)
 * @param timeout the caller's time limit in seconds as written, or null
 * @param output how the rows are answered
 * @param transport how the call arrived: null for the REST API, {@link #MCP} for the MCP server (events, history)
 * @param language the ad-hoc statement's language: {@code sql}, or {@code mongo} for a MongoDB query document
 *     ({@code /execute_mongo}); a saved query's is its connection's
 */
public record CallRequest(Caller caller, String requestId, String queryName, String version, String sql,
        Map<String, String> textParams, JsonNode jsonParams, String connection, String timeout,
        OutputRequest output, String transport, String language) {
    /** The transport of a call through the MCP server. */
    public static final String MCP = "mcp";
    /** The language of a MongoDB query document. */
    public static final String MONGO = "mongo";

    public CallRequest {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(output, "output");
        textParams = textParams == null ? Map.of() : textParams;
        language = language == null ? "sql" : language;
    }

    public CallRequest(Caller caller, String requestId, String queryName, String version, String sql,
            Map<String, String> textParams, JsonNode jsonParams, String connection, String timeout,
            OutputRequest output, String transport) {
        this(caller, requestId, queryName, version, sql, textParams, jsonParams, connection, timeout, output,
                transport, null);
    }

    /** A call of an ad-hoc MongoDB query document ({@code /execute_mongo}). */
    public static CallRequest adHocMongo(Caller caller, String requestId, String queryDocument, JsonNode params,
            String connection, String timeout, OutputRequest output) {
        return new CallRequest(caller, requestId, null, null, queryDocument, Map.of(), params, connection, timeout,
                output, null, MONGO);
    }

    /** A call of a saved query. */
    public static CallRequest savedQuery(Caller caller, String requestId, String name, String version,
            Map<String, String> textParams, JsonNode jsonParams, String connection, String timeout,
            OutputRequest output) {
        return new CallRequest(caller, requestId, Objects.requireNonNull(name, "name"), version, null, textParams,
                jsonParams, connection, timeout, output, null);
    }

    /** A call of ad-hoc SQL. */
    public static CallRequest adHoc(Caller caller, String requestId, String sql, JsonNode params, String connection,
            String timeout, OutputRequest output) {
        return new CallRequest(caller, requestId, null, null, sql, Map.of(), params, connection, timeout, output,
                null);
    }

    /** The same call, answered as {@code output} says. */
    public CallRequest withOutput(OutputRequest output) {
        return new CallRequest(caller, requestId, queryName, version, sql, textParams, jsonParams, connection, timeout,
                output, transport, language);
    }

    /** The same call, arrived through {@code transport} ({@link #MCP}). */
    public CallRequest via(String transport) {
        return new CallRequest(caller, requestId, queryName, version, sql, textParams, jsonParams, connection, timeout,
                output, transport, language);
    }

    public boolean isSavedQuery() {
        return queryName != null;
    }
}
