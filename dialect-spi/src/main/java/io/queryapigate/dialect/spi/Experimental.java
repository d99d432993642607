package io.queryapigate.dialect.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks SPI elements that may still change in a minor version. */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Experimental {
    /**
     * The SPI version that introduced the element.
     *
     * @return a {@code major.minor} version
     */
    String since();
}
