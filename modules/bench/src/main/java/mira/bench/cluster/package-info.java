/** What answering for the whole cluster costs over asking each node alone: {@link mira.bench.cluster.FanoutCost}. */
package mira.bench.cluster;
