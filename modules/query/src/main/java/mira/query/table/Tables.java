package mira.query.table;

import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;

/** The table files the query layer reads, and a null-for-absent accessor. */
public final class Tables {
  public static final String RESOURCES = "resources.arrow";
  public static final String RESOURCE_ATTRS = "resource_attrs.arrow";
  public static final String SCOPES = "scopes.arrow";
  public static final String SCOPE_ATTRS = "scope_attrs.arrow";
  public static final String LOGS = "logs.arrow";
  public static final String LOG_ATTRS = "log_attrs.arrow";
  public static final String SPANS = "spans.arrow";
  public static final String SPAN_ATTRS = "span_attrs.arrow";
  public static final String SPAN_EVENTS = "span_events.arrow";
  public static final String SPAN_EVENT_ATTRS = "span_event_attrs.arrow";
  public static final String SPAN_LINKS = "span_links.arrow";
  public static final String SPAN_LINK_ATTRS = "span_link_attrs.arrow";
  public static final String METRICS = "metrics.arrow";
  public static final String METRIC_ATTRS = "metric_attrs.arrow";
  public static final String NUMBER_DP = "number_dp.arrow";
  public static final String HIST_DP = "hist_dp.arrow";
  public static final String EXP_HIST_DP = "exp_hist_dp.arrow";
  public static final String SUMMARY_DP = "summary_dp.arrow";
  public static final String DP_ATTRS = "dp_attrs.arrow";
  public static final String EXEMPLARS = "exemplars.arrow";
  public static final String EXEMPLAR_ATTRS = "exemplar_attrs.arrow";

  private Tables() {}

  /** The table, or null if the block has none (empty tables are not written). */
  public static TableView get(BlockReader r, String file) throws CorruptBlockException {
    return r.table(file).orElse(null);
  }

  /** Rows of the table, 0 if absent. */
  public static int rows(BlockReader r, String file) throws CorruptBlockException {
    TableView t = get(r, file);
    return t == null ? 0 : t.rows();
  }
}
