package mira.block.layout;

/**
 * The file name of every table a block may hold, one place for the writers that create them and
 * the readers that look them up. A block holds only the tables it has rows for.
 */
public final class TableFiles {
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
  public static final String HIST_BOUNDS = "hist_bounds.arrow";

  private TableFiles() {}
}
