-- How a call arrived: NULL for the REST API, 'mcp' for the MCP server (GET /api/v1/usage/agents reads it).
ALTER TABLE events ADD COLUMN transport VARCHAR(8);
ALTER TABLE run_history ADD COLUMN transport VARCHAR(8);
