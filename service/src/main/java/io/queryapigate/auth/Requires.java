package io.queryapigate.auth;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The one capability a management operation needs. {@link CapabilityFeature} checks it before the resource method
 * runs; a test fails for any {@code /api/v1} method without it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Requires {
    Capability value();
}
