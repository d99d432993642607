package io.queryapigate.cache;

import java.net.URI;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;

/** Builds the one Redis client the response cache and the rate limits share. */
public final class Redis {
    private Redis() {}

    /**
     * A pooled client for {@code redis://[user:password@]host:port[/db]} or {@code rediss://...}.
     *
     * @throws IllegalArgumentException naming {@code redis.url} when the URL is malformed
     */
    public static RedisClient client(String url, int timeoutMillis) {
        URI uri = uri(url);
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(timeoutMillis).socketTimeoutMillis(timeoutMillis)
                .ssl("rediss".equals(uri.getScheme()));
        if (uri.getUserInfo() != null) {
            String[] userInfo = uri.getUserInfo().split(":", 2);
            if (userInfo.length == 2) {
                if (!userInfo[0].isEmpty()) {
                    config.user(userInfo[0]);
                }
                config.password(userInfo[1]);
            } else {
                config.password(userInfo[0]);
            }
        }
        String path = uri.getPath();
        if (path != null && path.length() > 1) {
            config.database(Integer.parseInt(path.substring(1)));
        }
        return RedisClient.builder()
                .hostAndPort(new HostAndPort(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort()))
                .clientConfig(config.build())
                .build();
    }

    /**
     * The checked URL: {@code redis://} or {@code rediss://}, a host, and a database number as its path if any.
     *
     * @throws IllegalArgumentException naming {@code redis.url} when the URL is malformed
     */
    public static URI uri(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("redis.url: '" + url + "' is not a URL (" + e.getReason() + ")", e);
        }
        if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("redis.url: '" + url
                    + "': expected redis://host:port or rediss://host:port");
        }
        String path = uri.getPath();
        if (path != null && path.length() > 1 && !path.substring(1).matches("\\d{1,9}")) {
            throw new IllegalArgumentException("redis.url: the path must be a database number");
        }
        return uri;
    }
}
