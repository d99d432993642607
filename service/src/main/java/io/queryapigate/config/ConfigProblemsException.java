package io.queryapigate.config;

import io.dropwizard.configuration.ConfigurationException;
import java.util.List;

/**
 * Every problem found in one configuration file. Dropwizard's command line prints a {@code ConfigurationException}'s
 * message alone, without a stack trace, and exits 1: the message lists each problem on its own line.
 */
public final class ConfigProblemsException extends ConfigurationException {
    private final transient List<ConfigProblem> problems;
    private final String message;

    public ConfigProblemsException(String file, List<ConfigProblem> problems) {
        super(file, problems.stream().map(p -> p.describe(file)).toList());
        this.problems = List.copyOf(problems);
        StringBuilder text = new StringBuilder(file).append(problems.size() == 1 ? " has 1 problem:"
                : " has " + problems.size() + " problems:");
        for (ConfigProblem p : problems) {
            text.append(System.lineSeparator()).append("  ").append(p.describe(file));
        }
        this.message = text.toString();
    }

    /** The problems, in the order of the file's lines (missing keys last). */
    public List<ConfigProblem> problems() {
        return problems;
    }

    @Override
    public String getMessage() {
        return message;
    }
}
