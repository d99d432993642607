package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.queryapigate.cli.McpCommand;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code queryapigate mcp --stdio CONFIG} as a process of its own (the test's classpath), on the store a running
 * server shares: it refuses to start without a valid {@code QUERYAPIGATE_API_KEY}, and otherwise serves that key's
 * tools to the SDK's stdio client, with nothing but the protocol on stdout.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class McpStdioIT {
    private static final Path CONFIG = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed());
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, CONFIG.toString());

    private static List<String> command() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), GatewayApplication.class.getName(), "mcp", "--stdio",
                CONFIG.toString());
    }

    @Test
    void refusesToStartWithoutAValidKey() throws Exception {
        for (String key : new String[] {null, "not-a-key"}) {
            ProcessBuilder pb = new ProcessBuilder(command());
            pb.environment().remove(McpCommand.API_KEY);
            if (key != null) {
                pb.environment().put(McpCommand.API_KEY, key);
            }
            Process p = pb.start();
            p.getOutputStream().close();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as(err).isNotZero();
            assertThat(err).contains(McpCommand.API_KEY);
            assertThat(out).as("stdout is the protocol's alone").isEmpty();
        }
    }

    @Test
    void servesTheKeysToolsOverStdio() {
        Http http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        String key = http.key("stdio-agent", Map.of("queries", List.of("film")));
        List<String> command = command();
        ServerParameters params = ServerParameters.builder(command.get(0)).args(command.subList(1, command.size()))
                .addEnvVar(McpCommand.API_KEY, key).build();
        StdioClientTransport transport = new StdioClientTransport(params, new JacksonMcpJsonMapper(new ObjectMapper()));
        List<String> stderr = new ArrayList<>();
        transport.setStdErrorHandler(stderr::add);
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(120)).build()) {
            client.initialize();
            assertThat(client.getServerInfo().name()).isEqualTo("queryapigate");
            List<String> tools = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
            assertThat(tools).as(String.join("\n", stderr)).containsExactly("film");
            CallToolResult r = client.callTool(new CallToolRequest("film", Map.of("film_id", 1)));
            assertThat(r.isError()).as(r.content().toString()).isFalse();
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> rows = (List<Map<String, Object>>) ((Map<String, Object>) r
                    .structuredContent()).get("rows");
            assertThat(rows).hasSize(1);
            assertThat(rows.get(0)).containsEntry("film_id", 1).containsKey("title");
            CallToolResult refused = client.callTool(new CallToolRequest("execute_sql", Map.of("connection_name",
                    "demo", "sql", "SELECT 1")));
            assertThat(refused.isError()).isTrue();
        }
    }
}
