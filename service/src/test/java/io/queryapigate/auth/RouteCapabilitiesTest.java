package io.queryapigate.auth;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every management operation ({@code /api/v1/...}) names the one capability it needs; nothing else names one. */
class RouteCapabilitiesTest {
    private static final List<Class<? extends java.lang.annotation.Annotation>> VERBS =
            List.of(GET.class, POST.class, PUT.class, PATCH.class, DELETE.class, HEAD.class);

    @Test
    void everyManagementOperationNeedsExactlyOneCapability() throws Exception {
        List<String> missing = new ArrayList<>();
        List<String> misplaced = new ArrayList<>();
        int managed = 0;
        for (Class<?> resource : resourceClasses()) {
            Path classPath = resource.getAnnotation(Path.class);
            if (classPath == null) {
                continue;
            }
            for (Method method : resource.getDeclaredMethods()) {
                if (VERBS.stream().noneMatch(method::isAnnotationPresent)) {
                    continue;
                }
                Path methodPath = method.getAnnotation(Path.class);
                String path = classPath.value() + (methodPath == null ? "" : "/" + methodPath.value());
                boolean management = path.startsWith("/api/v1");
                boolean requires = method.isAnnotationPresent(Requires.class);
                if (management) {
                    managed++;
                }
                if (management && !requires) {
                    missing.add(resource.getSimpleName() + "." + method.getName() + " " + path);
                } else if (!management && requires) {
                    misplaced.add(resource.getSimpleName() + "." + method.getName() + " " + path);
                }
            }
        }
        assertThat(managed).as("management operations found").isGreaterThan(40);
        assertThat(missing).as("operations without @Requires").isEmpty();
        assertThat(misplaced).as("@Requires outside /api/v1").isEmpty();
    }

    private static List<Class<?>> resourceClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        java.nio.file.Path dir = Paths.get(CapabilityFeature.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI()).resolve("io/queryapigate/resources");
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<java.nio.file.Path> files = Files.list(dir)) {
            for (java.nio.file.Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".class") && !name.contains("$")) {
                    classes.add(Class.forName("io.queryapigate.resources." + name.replace(".class", "")));
                }
            }
        }
        return classes;
    }
}
