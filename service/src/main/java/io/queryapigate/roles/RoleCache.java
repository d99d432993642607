package io.queryapigate.roles;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.RoleGrants;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.RoleRow;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API-key roles as authentication reads them: by name from the metadata cache (one store read per role per TTL;
 * a change made through this instance is seen at once), grants parsed once per load. The same {@link Role} object is
 * answered until its entry is reloaded. A role whose stored grants cannot be read is answered with none.
 */
public final class RoleCache implements RoleGrants {
    private static final Logger LOG = LoggerFactory.getLogger(RoleCache.class);
    private static final Grants NOTHING = Grants.reach(java.util.List.of(), java.util.List.of(), false);

    private final MetadataCache cache;
    private final ObjectMapper mapper;
    private final Function<RoleRow, Role> derive = this::derive;

    public RoleCache(MetadataCache cache, ObjectMapper mapper) {
        this.cache = cache;
        this.mapper = mapper;
    }

    @Override
    public Optional<Role> role(String name) {
        return cache.roleByName(name, derive);
    }

    private Role derive(RoleRow row) {
        Grants grants;
        try {
            grants = mapper.readValue(row.grants(), Grants.class);
        } catch (IOException | RuntimeException e) {
            LOG.error("Role {} has unreadable grants; it grants nothing", row.name(), e);
            grants = NOTHING;
        }
        return new Role(row.id(), row.name(), row.workspace(), grants);
    }
}
