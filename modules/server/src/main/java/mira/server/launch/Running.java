package mira.server.launch;

import mira.server.retention.RetentionSweeper;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import mira.alert.Alerting;
import mira.alert.Delivery;
import mira.alert.Rules;
import mira.alert.RulesException;
import mira.alert.RulesFile;
import mira.cluster.Cluster;
import mira.cluster.Peers;
import mira.block.read.MappedBlockReader;
import mira.query.LocalQueries;
import mira.server.api.Api;
import mira.server.config.Config;
import mira.server.ingest.Ingest;

/**
 * A started node: the checked data directory, the ingest pipeline and the listeners, started in
 * that order and stopped in the reverse one.
 */
public final class Running implements AutoCloseable {
  /** Exit status when a flusher dies: the process stops rather than refuse one signal forever. */
  public static final int EXIT_FLUSHER_DIED = 70;
  /** Time the flushers get to publish open blocks at shutdown. */
  public static final Duration SHUTDOWN_BUDGET = Duration.ofSeconds(12);

  private static final Logger LOG = System.getLogger("mira");

  private final DataDirectory.Checked data;
  private final Ingest ingest;
  private final LocalQueries queries;
  private final MiraServer server;
  private final RetentionSweeper retention;
  private final Alerting alerting;
  private final Optional<Path> rulesFile;

  private Running(DataDirectory.Checked data, Ingest ingest, LocalQueries queries, MiraServer server,
      RetentionSweeper retention, Alerting alerting, Optional<Path> rulesFile) {
    this.data = data;
    this.alerting = alerting;
    this.rulesFile = rulesFile;
    this.ingest = ingest;
    this.queries = queries;
    this.server = server;
    this.retention = retention;
  }

  /**
   * Checks the data directory, starts the pipeline, then binds the listeners.
   *
   * @throws StartupException with a one-line reason the node cannot start
   */
  public static Running start(Config config, Path mountinfo) throws StartupException {
    // Beside the start, on a core the start mostly leaves idle: what the first table load of the
    // process would otherwise initialise while a query waits (MappedBlockReader.initialiseClasses).
    Thread.ofPlatform().name("init-classes").daemon().start(MappedBlockReader::initialiseClasses);
    // A bad rules file stops the start, before anything is opened: the first page is exactly when
    // nobody is reading logs, so it is refused now rather than then.
    Rules rules = Rules.NONE;
    if (config.alertRules().isPresent()) {
      try {
        rules = RulesFile.load(config.alertRules().get());
      } catch (RulesException e) {
        throw new StartupException("alert.rules: " + e.getMessage());
      }
    }
    DataDirectory.Checked data = DataDirectory.prepare(config.dataDir(), mountinfo);
    data.warning().ifPresent(w -> LOG.log(Level.WARNING, w));
    Ingest ingest;
    try {
      Ingest.Options options = new Ingest.Options(config.node(), config.ingestShards(), config.ingestQueue(),
          config.ingestWal(), (int) config.maxRequestBytes(), Ingest.ADMIT_WAIT);
      ingest = Ingest.start(data.path(), options, (t, e) -> {
        LOG.log(Level.ERROR, t.getName() + " died; stopping so the process is restarted", e);
        Thread.ofPlatform().start(() -> System.exit(EXIT_FLUSHER_DIED));
      });
    } catch (IOException e) {
      throw new StartupException("cannot prepare the data directory " + data.path() + ": " + e.getMessage(), e);
    }
    LocalQueries queries;
    try {
      queries = LocalQueries.open(data.path(), ingest);
    } catch (IOException e) {
      ingest.close();
      throw new StartupException("cannot open the data directory " + data.path() + " for queries: " + e.getMessage(), e);
    }
    RetentionSweeper retention = new RetentionSweeper(data.path(), config.retentionTtl(), config.node(), config.coldFormat());
    Cluster cluster;
    try {
      cluster = new Cluster(config.node(), queries, Peers.parse(config.clusterPeers()), config.clusterTimeout());
    } catch (RuntimeException e) {
      retention.close();
      ingest.close();
      queries.close();
      throw e;
    }
    Alerting alerting = Alerting.off();
    if (config.alertRules().isPresent()) {
      // With peers, a rule counts every node's records, as a query asked of this node does.
      alerting = Alerting.create(new ClusterReads(cluster), new Delivery(), config.node(), config.linkBase(),
          queries::now);
      alerting.replace(rules);
    }
    try {
      MiraServer server = MiraServer.start(config, data, ingest,
          Api.routes(config.node(), ingest, cluster, retention, Version.current(), alerting,
              config.linkBase()));
      alerting.start();
      return new Running(data, ingest, queries, server, retention, alerting, config.alertRules());
    } catch (StartupException | RuntimeException e) {
      alerting.close();
      retention.close();
      ingest.close();
      queries.close();
      throw e;
    }
  }

  public DataDirectory.Checked data() {
    return data;
  }

  public MiraServer server() {
    return server;
  }

  public Ingest ingest() {
    return ingest;
  }

  /**
   * Stops accepting, lets in-flight exports reach their flusher, then lets the flushers publish
   * what they hold (which answers those exports). Idempotent.
   */
  /**
   * SIGHUP: reads the token files and the rules file again. Each keeps its previous state when
   * its file does not load (logged).
   */
  public void reload() {
    server.reload();
    reloadRules();
  }

  /**
   * Reads the rules file again (on SIGHUP). A file that does not load leaves the running rules in
   * place and its error in {@code /api/v1/alerts} and the log. Returns false if alerting is off.
   */
  public boolean reloadRules() {
    if (rulesFile.isEmpty()) {
      LOG.log(Level.INFO, "rules reload asked, but alerting is off (alert.rules is not set)");
      return false;
    }
    try {
      alerting.replace(RulesFile.load(rulesFile.get()));
    } catch (RulesException e) {
      alerting.reloadFailed(e.getMessage());
    }
    return true;
  }

  /**
   * Stops the node, each part even if one before it fails: a failure in one part (logged) must not
   * leave the ingest shards unsealed or their threads running, which would keep the process alive.
   */
  @Override
  public void close() {
    closing("listeners", server::close);
    closing("alerting", alerting::close);
    closing("retention", retention::close);
    closing("ingest", () -> ingest.close(SHUTDOWN_BUDGET));
    closing("queries", queries::close);
  }

  private static void closing(String part, Runnable close) {
    try {
      close.run();
    } catch (RuntimeException | Error e) {
      LOG.log(Level.ERROR, "stopping " + part + " failed; going on with the rest: " + e, e);
    }
  }
}
