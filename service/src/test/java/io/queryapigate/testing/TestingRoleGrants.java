package io.queryapigate.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.GatewayApplication;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.RoleGrants;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * API-key roles read straight from the store's {@code roles} table, row by row (tests write the rows with SQL): what
 * the JWT tests authenticate against until the roles' own implementation is wired into the application.
 */
public final class TestingRoleGrants implements RoleGrants {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Jdbi jdbi;

    public TestingRoleGrants(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public Optional<Role> role(String name) {
        return jdbi.withHandle(h -> h.createQuery("SELECT id, name, workspace, grants FROM roles WHERE name = :name")
                .bind("name", name)
                .map((rs, ctx) -> new Role(rs.getLong("id"), rs.getString("name"), rs.getString("workspace"),
                        grants(rs.getString("grants"))))
                .findOne());
    }

    /** Writes a role row (or replaces its grants) in the store at {@code jdbi}. */
    public static void put(Jdbi jdbi, String name, String workspace, String grantsJson) {
        jdbi.useHandle(h -> {
            h.createUpdate("DELETE FROM roles WHERE name = :name").bind("name", name).execute();
            h.createUpdate("INSERT INTO roles (name, workspace, grants, created_at, updated_at)"
                    + " VALUES (:name, :workspace, :grants, 0, 0)").bind("name", name).bind("workspace", workspace)
                    .bind("grants", grantsJson).execute();
        });
    }

    private static Grants grants(String json) {
        try {
            return JSON.readValue(json, Grants.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The application with these roles. */
    public static final class Application extends GatewayApplication {
        @Override
        protected RoleGrants roleGrants(Store store, MetadataCache cache) {
            return new TestingRoleGrants(store.jdbi());
        }
    }

    /** The application with these roles, on {@code config}, not started yet. */
    public static DropwizardTestSupport<GatewayConfiguration> app(Path config) {
        return new DropwizardTestSupport<>(Application.class, config.toString());
    }
}
