package io.queryapigate.dialect.testkit;

/**
 * Sees the bytes of one direction of one connection, in order, as they cross: a {@link TcpProxy} hands it what a
 * client sends, a {@link CountingSocket} what its socket writes or reads. A tap parses or counts; it must not keep
 * the array (it is reused) and should be quick, since it runs on the thread that moves the bytes.
 *
 * <p>One tap sees one stream, so a parser may keep its state between calls; the chunks are cut wherever the
 * network or the driver cut them, not at message boundaries.
 */
@FunctionalInterface
public interface ByteTap {

    /**
     * The next bytes of the stream.
     *
     * @param bytes a buffer
     * @param offset where the new bytes start in it
     * @param length how many there are (at least 1)
     */
    void bytes(byte[] bytes, int offset, int length);
}
