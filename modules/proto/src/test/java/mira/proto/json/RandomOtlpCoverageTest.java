package mira.proto.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The round-trip properties only prove the decoder knows a field if the generator sets it. This
 * checks that {@link RandomOtlp} sets every field of every message reachable from the three
 * export requests, so a field the decoder skips cannot go unnoticed.
 */
class RandomOtlpCoverageTest {

  @Test
  void generatorSetsEveryFieldOfEveryMessageInTheThreeRequests() {
    List<Supplier<Message.Builder>> requests =
        List.of(ExportLogsServiceRequest::newBuilder, ExportTraceServiceRequest::newBuilder,
            ExportMetricsServiceRequest::newBuilder);
    Set<FieldDescriptor> expected = new HashSet<>();
    for (Supplier<Message.Builder> s : requests) {
      expected.addAll(reachableFields(s.get().getDescriptorForType()));
    }

    Set<FieldDescriptor> seen = new HashSet<>();
    Random r = new Random(20240601);
    for (int i = 0; i < 300; i++) {
      for (Supplier<Message.Builder> s : requests) new RandomOtlp(r, seen::add).build(s.get());
    }

    Set<String> missing = expected.stream().filter(f -> !seen.contains(f))
        .map(FieldDescriptor::getFullName).collect(Collectors.toCollection(java.util.TreeSet::new));
    assertThat(missing).as("fields the generator never set").isEmpty();
    // Positive control: the walk found the message types it must have.
    assertThat(expected).extracting(FieldDescriptor::getFullName)
        .contains("opentelemetry.proto.common.v1.AnyValue.bytes_value",
            "opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint.Buckets.bucket_counts",
            "opentelemetry.proto.resource.v1.Resource.entity_refs",
            "opentelemetry.proto.trace.v1.Span.Link.flags");
  }

  private static Set<FieldDescriptor> reachableFields(Descriptor root) {
    Set<FieldDescriptor> fields = new HashSet<>();
    Set<Descriptor> visited = new HashSet<>();
    Deque<Descriptor> todo = new ArrayDeque<>(List.of(root));
    while (!todo.isEmpty()) {
      Descriptor d = todo.pop();
      if (!visited.add(d)) continue;
      for (FieldDescriptor f : d.getFields()) {
        fields.add(f);
        if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) todo.push(f.getMessageType());
      }
    }
    return fields;
  }
}
