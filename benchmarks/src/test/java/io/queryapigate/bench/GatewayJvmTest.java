package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;

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
}
