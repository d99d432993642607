package io.queryapigate.store;

/** A signed-in user as the store keeps them (kind {@code jwt}): who issued their token, its subject, their name. */
public record PrincipalRow(long id, String kind, String issuer, String subject, String name, long firstSeenAt) {}
