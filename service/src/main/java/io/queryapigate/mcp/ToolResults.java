package io.queryapigate.mcp;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.errors.ApiException;
import io.queryapigate.errors.DialectErrors;
import io.queryapigate.secrets.SecretUnavailableException;
import io.queryapigate.errors.SecretUnavailableMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tool results in the original's shapes: rows as {@code structuredContent} {@code {rows, truncated, note?}} with a
 * compact text table, and refusals as tool errors carrying the REST answer's {@code error} and {@code code}.
 */
public final class ToolResults {
    private ToolResults() {}

    /**
     * The rows of one page; {@code truncated} adds the note asking for a filter or an aggregate.
     *
     * @param columns the rows' columns in order (the first row's when the rows carry them)
     */
    static CallToolResult rows(List<String> columns, List<Map<String, Object>> rows, boolean truncated) {
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("rows", rows);
        structured.put("truncated", truncated);
        List<io.modelcontextprotocol.spec.McpSchema.Content> content = new ArrayList<>();
        content.add(new TextContent(TextTable.render(columns, rows)));
        if (truncated) {
            String note = "Showing the first " + rows.size() + " rows; more rows match. Add a WHERE filter to narrow"
                    + " the result, or ask for a summary with an aggregate (COUNT, SUM, GROUP BY) to get the answer"
                    + " itself instead of raw rows.";
            structured.put("note", note);
            content.add(new TextContent(note));
        }
        return CallToolResult.builder().content(content).structuredContent(structured).isError(false).build();
    }

    /** A JSON answer (a table's description, the tables of a connection) as structured content and its text. */
    static CallToolResult json(Map<String, Object> structured, String text) {
        return CallToolResult.builder().addTextContent(text).structuredContent(structured).isError(false).build();
    }

    /** A refusal as a tool error: the message as text, {@code {error, code}} as structured content. */
    public static CallToolResult error(int status, String code, String message) {
        return error(status, code, message, 0);
    }

    private static CallToolResult error(int status, String code, String message, long retryAfterSeconds) {
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("error", message);
        structured.put("code", code);
        if (retryAfterSeconds > 0) {
            structured.put("retry_after", retryAfterSeconds);
        }
        return CallToolResult.builder().addTextContent(message).structuredContent(structured).isError(true).build();
    }

    /** A failure of a call as REST would answer it, as a tool error. */
    public static CallToolResult error(RuntimeException failure) {
        return switch (failure) {
            case ApiException e -> error(e.status(), e.code(), e.getMessage());
            case DialectException e -> {
                DialectErrors.Answer answer = DialectErrors.of(e.error());
                String detail = DialectErrors.showsDatabaseMessage(e.error()) ? e.getMessage() : null;
                // retry_after as REST's Retry-After: a database that is down is refused at once
                yield error(answer.status(), answer.code(), detail == null ? answer.message()
                        : answer.message() + " " + detail, answer.retryAfterSeconds());
            }
            case SecretUnavailableException e -> error(503, SecretUnavailableMapper.CODE,
                    "The connection's secret is unavailable; try again later.");
            default -> throw failure;
        };
    }
}
