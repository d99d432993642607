package io.queryapigate.live;

/**
 * One call as the live stream fans it out: what audiences and filters compare, and its frame ({@code id:} and
 * {@code data:} lines), written once and shared by every stream that gets it.
 *
 * @param workspace the workspace the call belongs to
 * @param query     the saved query's name, null for ad-hoc SQL (and a call refused before its query was found)
 * @param adHoc     ad-hoc SQL
 */
record LiveEvent(long id, long keyId, String workspace, String query, String connection, boolean adHoc, int status,
        byte[] frame) {}
