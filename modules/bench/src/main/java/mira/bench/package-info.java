/** JMH benchmarks of Mira's hot paths; each names the figure it produces in docs/performance.md. */
package mira.bench;
