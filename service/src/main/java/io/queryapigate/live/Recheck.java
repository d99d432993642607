package io.queryapigate.live;

/** Whether an open stream's caller may still see it: its key not revoked or expired, its token or session valid. */
@FunctionalInterface
public interface Recheck {
    boolean stillValid();
}
