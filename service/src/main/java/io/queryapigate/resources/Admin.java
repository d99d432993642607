package io.queryapigate.resources;

import io.queryapigate.auth.Caller;
import io.queryapigate.errors.ApiException;

final class Admin {
    private Admin() {}

    static void require(Caller caller) {
        if (!caller.admin()) {
            throw ApiException.forbidden("admin_only", "Only the administrator key may use the management API.");
        }
    }
}
