package mira.block.table;

import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;

/**
 * The walk every OTLP export shares: {@code Export*ServiceRequest} → {@code Resource*} (resource,
 * schema_url) → {@code Scope*} (scope, schema_url) → records. It writes resources and scopes
 * through an {@link ResourceScopeWriter} and hands each record to {@link #record}, with the error path built
 * from the signal's field names (e.g. {@code resource_logs[0].scope_logs[1].log_records[7]}).
 *
 * <p>An envelope's singular fields are read in a first pass over it, because protobuf allows them
 * after the repeated ones. Not thread-safe; one decoder per thread.
 *
 * @param <B> the signal's batch
 */
public abstract class ExportDecoder<B extends Batch> {
  private final String resourceName;
  private final String scopeName;
  private final String recordName;
  private final ProtoReader top = new ProtoReader();
  private final ProtoReader resource = new ProtoReader();
  private final ProtoReader scope = new ProtoReader();

  /**
   * @param resourceName the request's field 1, e.g. {@code resource_logs}
   * @param scopeName the Resource* message's field 2, e.g. {@code scope_logs}
   * @param recordName the Scope* message's field 2, e.g. {@code log_records}
   */
  protected ExportDecoder(String resourceName, String scopeName, String recordName) {
    this.resourceName = resourceName;
    this.scopeName = scopeName;
    this.recordName = recordName;
  }

  /** Prepares to decode one export into {@code batch} (look up its columns once). */
  protected abstract void begin(B batch, long receivedAt);

  /**
   * Decodes one record; {@code field} is on the record's LEN field.
   *
   * @throws WireException with a path relative to the record
   */
  protected abstract void record(byte[] buf, ProtoReader field, int resourceId, int scopeId)
      throws WireException, TooLargeException;

  /** Called after the last record, before the batch is checked. */
  protected void end(B batch, long receivedAt) {}

  /**
   * Decodes {@code buf[off, off + len)} into {@code batch}, which must be empty.
   *
   * @param receivedAt the receive time (ns since the epoch), for records that carry no time
   * @throws WireException naming the malformed field
   * @throws TooLargeException if the export cannot fit an empty block
   */
  protected final B decodeInto(byte[] buf, int off, int len, long receivedAt, B batch)
      throws WireException, TooLargeException {
    if (!batch.isEmpty() || batch.resourceCount() != 0) {
      throw new IllegalArgumentException("decoding into a batch that is not empty");
    }
    ResourceScopeWriter env = new ResourceScopeWriter(batch);
    begin(batch, receivedAt);
    top.reset(buf, off, off + len);
    int i = 0;
    while (top.next()) {
      if (top.field() != 1) {
        continue;
      }
      try {
        top.expect(ProtoReader.LEN);
        resource(buf, env);
      } catch (WireException e) {
        throw WireException.at(resourceName + "[" + i + "]", e);
      } catch (TooLargeException e) {
        throw new TooLargeException(resourceName + "[" + i + "]: " + e.getMessage());
      }
      i++;
    }
    end(batch, receivedAt);
    batch.check();
    return batch;
  }

  private void resource(byte[] buf, ResourceScopeWriter env) throws WireException, TooLargeException {
    resource.enter(top);
    int resStart = -1;
    int resEnd = -1;
    int schemaStart = -1;
    int schemaEnd = -1;
    while (resource.next()) {
      switch (resource.field()) {
        case 1 -> {
          Fields.expect(resource, "resource");
          resStart = resource.start();
          resEnd = resource.end();
        }
        case 3 -> {
          Fields.utf8(resource, "schema_url");
          schemaStart = resource.start();
          schemaEnd = resource.end();
        }
        default -> { }
      }
    }
    int resourceId = env.resource(buf, resStart, resEnd, schemaStart, schemaEnd);
    resource.enter(top);
    int j = 0;
    while (resource.next()) {
      if (resource.field() != 2) {
        continue;
      }
      try {
        resource.expect(ProtoReader.LEN);
        scope(buf, env, resourceId);
      } catch (WireException e) {
        throw WireException.at(scopeName + "[" + j + "]", e);
      }
      j++;
    }
  }

  private void scope(byte[] buf, ResourceScopeWriter env, int resourceId) throws WireException, TooLargeException {
    scope.enter(resource);
    int scopeStart = -1;
    int scopeEnd = -1;
    int schemaStart = -1;
    int schemaEnd = -1;
    while (scope.next()) {
      switch (scope.field()) {
        case 1 -> {
          Fields.expect(scope, "scope");
          scopeStart = scope.start();
          scopeEnd = scope.end();
        }
        case 3 -> {
          Fields.utf8(scope, "schema_url");
          schemaStart = scope.start();
          schemaEnd = scope.end();
        }
        default -> { }
      }
    }
    int scopeId = env.scope(buf, scopeStart, scopeEnd, schemaStart, schemaEnd);
    scope.enter(resource);
    int k = 0;
    while (scope.next()) {
      if (scope.field() != 2) {
        continue;
      }
      try {
        scope.expect(ProtoReader.LEN);
        record(buf, scope, resourceId, scopeId);
      } catch (WireException e) {
        throw WireException.at(recordName + "[" + k + "]", e);
      }
      k++;
    }
  }
}
