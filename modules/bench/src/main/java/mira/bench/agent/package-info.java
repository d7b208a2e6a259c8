/**
 * The scripted agent: an incident corpus made by the load generator's streams over an hour of
 * simulated time ({@link mira.bench.agent.IncidentHour}), an investigation of it in three MCP tool
 * calls ({@link mira.bench.agent.Investigation}), and the tool that times those calls on a running
 * server ({@link mira.bench.agent.AgentScenario}).
 */
package mira.bench.agent;
