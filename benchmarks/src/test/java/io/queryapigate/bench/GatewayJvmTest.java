package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class GatewayJvmTest {
    @Test
    void optionsAreRunShsInRunShsOrder() {
        List<String> file = List.of("# a comment", "-XX:+UseSerialGC", "", "  -Xmx192m  ", "#-Xmx1g");
        assertThat(GatewayJvm.assemble(file, null))
                .containsExactly("--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xmx192m");
        assertThat(GatewayJvm.assemble(file, " -XX:AOTCache=app.aot  -Xmx256m "))
                .containsExactly("--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xmx192m",
                        "-XX:AOTCache=app.aot", "-Xmx256m");
    }

    @Test
    void aDashValueIsJoinedToItsOption() {
        assertThat(BenchCli.joinOptionValues(new String[] {"run", "--gateway-jvm-opts", "-Xmx1g -Xms1g", "--smoke"},
                "--gateway-jvm-opts")).containsExactly("run", "--gateway-jvm-opts=-Xmx1g -Xms1g", "--smoke");
    }

    @Test
    void theFirstStartRecordsTheAotCacheAndLaterStartsUseIt() throws Exception {
        Path repo = Files.createTempDirectory("qagb-jvm-");
        Files.createDirectories(repo.resolve("config"));
        Files.writeString(repo.resolve(GatewayJvm.OPTIONS_FILE), "-Xmx192m\n");
        Path cache = repo.resolve("gateway.aot");
        try {
            GatewayJvm.configure(repo, null);
            GatewayJvm.aotCache(cache);
            assertThat(GatewayJvm.startOptions()).endsWith("-Xmx192m", "-XX:AOTCacheOutput=" + cache);
            Files.writeString(cache, "as the JVM writes it when it exits");
            assertThat(GatewayJvm.startOptions()).endsWith("-Xmx192m", "-XX:AOTCache=" + cache);
            GatewayJvm.configure(repo, "-XX:AOTCache=mine.aot");
            GatewayJvm.aotCache(cache);
            assertThat(GatewayJvm.aotCache()).as("an AOT option of one's own wins").isNull();
            assertThat(GatewayJvm.startOptions()).endsWith("-Xmx192m", "-XX:AOTCache=mine.aot");
        } finally {
            GatewayJvm.aotCache(null);
            GatewayJvm.configure(repo, null);
        }
    }
}
