/**
 * Answers for the whole cluster: a read asked of any replica is asked of every peer in parallel
 * (over the public HTTP API, with a hop header so a peer answers from its own data only) and of this
 * node in-process, and the typed answers are merged exactly. Peers come from configuration, as
 * addresses or as a DNS name re-resolved (a headless Service); there is no membership protocol.
 */
module mira.cluster {
  requires transitive mira.client;
  requires java.net.http;
  requires com.fasterxml.jackson.core;

  exports mira.cluster;
}
