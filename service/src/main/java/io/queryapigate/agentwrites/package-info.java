/**
 * AI agents' writes through saved queries marked {@code agent_writes}, approved by a person first or insert-only
 * ({@link io.queryapigate.agentwrites.AgentWrites}); docs/agent-writes.md.
 */
package io.queryapigate.agentwrites;
