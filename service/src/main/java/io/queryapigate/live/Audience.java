package io.queryapigate.live;

import io.queryapigate.auth.Caller;

/**
 * Whose calls a stream may see: an API key or a signed-in user its own calls (by key id, so a key made later under a
 * deleted key's name sees none of the old one's); an administrator the calls of the workspace it acts in; a
 * server-wide administrator (the break-glass key included) that names no workspace, every workspace's.
 *
 * @param keyId     the one caller whose calls are seen, or null for an administrator
 * @param workspace the one workspace whose calls are seen, or null for all
 */
record Audience(Long keyId, String workspace) {

    /** The audience of {@code caller}, settled in its workspace; {@code named}: the request named that workspace. */
    static Audience of(Caller caller, boolean named) {
        if (!caller.identity().administrator()) {
            return new Audience(caller.keyId(), null);
        }
        return new Audience(null, caller.identity().serverWide() && !named ? null : caller.workspace());
    }

    boolean sees(LiveEvent e) {
        return (keyId == null || keyId == e.keyId()) && (workspace == null || workspace.equals(e.workspace()));
    }
}
