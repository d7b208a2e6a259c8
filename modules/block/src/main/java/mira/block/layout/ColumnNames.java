package mira.block.layout;

/**
 * The name of every column Mira writes, one place for the writers that create the columns and the
 * readers that find them by name (a reader finds a column by name, so a block written before a
 * column existed reads with the column absent).
 */
public final class ColumnNames {
  public static final String AGGREGATION_TEMPORALITY = "aggregation_temporality";
  public static final String BODY = "body";
  public static final String BODY_SER = "body_ser";
  public static final String BOOL = "bool";
  public static final String BOUNDS_ID = "bounds_id";
  public static final String BYTES = "bytes";
  public static final String COUNT = "count";
  public static final String DESCRIPTION = "description";
  public static final String DOUBLE = "double";
  public static final String DROPPED_ATTRIBUTES_COUNT = "dropped_attributes_count";
  public static final String DROPPED_EVENTS_COUNT = "dropped_events_count";
  public static final String DROPPED_LINKS_COUNT = "dropped_links_count";
  public static final String DURATION_NANO = "duration_nano";
  public static final String END_TIME_UNIX_NANO = "end_time_unix_nano";
  public static final String ENTITY_REFS = "entity_refs";
  public static final String EVENT_NAME = "event_name";
  public static final String FLAGS = "flags";
  public static final String ID = "id";
  public static final String INT = "int";
  public static final String ITEM = "item";
  public static final String KEY = "key";
  public static final String KIND = "kind";
  public static final String MAX = "max";
  public static final String MIN = "min";
  public static final String NAME = "name";
  public static final String NEGATIVE_OFFSET = "negative_offset";
  public static final String OBSERVED_TIME_UNIX_NANO = "observed_time_unix_nano";
  public static final String PARENT_ID = "parent_id";
  public static final String PARENT_SPAN_ID = "parent_span_id";
  public static final String POSITIVE_OFFSET = "positive_offset";
  public static final String RESOURCE_ID = "resource_id";
  public static final String SCALE = "scale";
  public static final String SCHEMA_URL = "schema_url";
  public static final String SCOPE_ID = "scope_id";
  public static final String SER = "ser";
  public static final String SEVERITY_NUMBER = "severity_number";
  public static final String SEVERITY_TEXT = "severity_text";
  public static final String SPAN_ID = "span_id";
  public static final String START_TIME_UNIX_NANO = "start_time_unix_nano";
  public static final String STATUS_CODE = "status_code";
  public static final String STATUS_MESSAGE = "status_message";
  public static final String STR = "str";
  public static final String SUM = "sum";
  public static final String TIME_UNIX_NANO = "time_unix_nano";
  public static final String TRACE_ID = "trace_id";
  public static final String TRACE_STATE = "trace_state";
  public static final String TYPE = "type";
  public static final String UNIT = "unit";
  public static final String VERSION = "version";
  public static final String ZERO_COUNT = "zero_count";
  public static final String ZERO_THRESHOLD = "zero_threshold";

  public static final String BOUNDS = "bounds";

  public static final String BUCKET_COUNTS = "bucket_counts";

  public static final String IS_MONOTONIC = "is_monotonic";

  public static final String NEGATIVE_BUCKET_COUNTS = "negative_bucket_counts";

  public static final String POSITIVE_BUCKET_COUNTS = "positive_bucket_counts";

  public static final String QUANTILES = "quantiles";

  public static final String VALUES = "values";

  private ColumnNames() {}
}
