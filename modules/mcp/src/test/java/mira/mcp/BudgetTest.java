package mira.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BudgetTest {
  @SuppressWarnings("unchecked")
  private static Map<String, Object> parse(String json) throws Exception {
    return (Map<String, Object>) Tree.parseAnswer(json.getBytes(StandardCharsets.UTF_8));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> parse(byte[] json) throws Exception {
    return (Map<String, Object>) Tree.parseAnswer(json);
  }

  @Test
  void emptyMembersGoBelowTheTopLevelButAttributesAndTheNullEntityStay() throws Exception {
    Map<String, Object> doc = parse("""
        {"rows": [{"severity_text": "", "body": null, "events": [], "dropped_attributes_count": 0, "flags": 0,
                   "attributes": {"empty": "", "none": null},
                   "resource": {"entity": null, "attributes": {}, "dropped_attributes_count": 3}}],
         "refused": [], "metrics": []}""");
    Budget.Shaped s = Budget.shape(doc, Budget.Limits.DEFAULT, "rows", null);
    assertThat(new String(s.json(), StandardCharsets.UTF_8)).isEqualTo(
        "{\"rows\":[{\"flags\":0,\"attributes\":{\"empty\":\"\",\"none\":null},"
            + "\"resource\":{\"entity\":null,\"dropped_attributes_count\":3}}],\"refused\":[],\"metrics\":[]}");
    assertThat(s.note()).isEmpty();
  }

  @Test
  void aLongValueKeepsItsHeadAndSaysHowMuchWasCutAndHowToGetItWhole() throws Exception {
    String body = "x".repeat(1200);
    String id = "a".repeat(600);
    Map<String, Object> doc = parse("{\"rows\": [{\"body\": \"" + body + "\", \"trace_id\": \"" + id + "\"}]}");
    Budget.Shaped s = Budget.shape(doc, new Budget.Limits(8000, 100), "rows", null);
    Map<String, Object> out = parse(s.json());
    Map<?, ?> row = (Map<?, ?>) ((List<?>) out.get("rows")).get(0);
    assertThat((String) row.get("body")).isEqualTo("x".repeat(100) + "…[cut: 1100 of 1200 characters]");
    assertThat(row.get("trace_id")).as("ids are never cut").isEqualTo(id);
    assertThat((Map<String, Object>) out.get("cut")).containsEntry("values_cut", 1L)
        .containsEntry("values_rest", "max_value_chars=1200 keeps every value whole");
    assertThat(s.note()).contains("1 long values cut at 100 characters").contains("max_value_chars=1200");

    Map<String, Object> whole = parse("{\"rows\": [{\"body\": \"" + body + "\"}]}");
    assertThat(parse(Budget.shape(whole, new Budget.Limits(8000, 0), "rows", null).json()))
        .as("0 keeps every value").doesNotContainKey("cut");
  }

  @Test
  void anAnswerOverItsBudgetKeepsTheFirstEntriesThatFitAndNamesTheRest() throws Exception {
    List<Object> rows = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      rows.add(Tree.obj("n", (long) i, "text", "y".repeat(90)));
    }
    int[] keptSeen = {-1};
    Budget.Shaped s = Budget.shape(Tree.obj("rows", rows, "next", "c100"), new Budget.Limits(1000, 0), "rows",
        (d, kept, needed) -> {
          keptSeen[0] = kept;
          d.put("next", "c" + kept);
          return "after=c" + kept;
        });
    assertThat(s.json().length).as("3,000 characters of budget").isLessThanOrEqualTo(3000);
    Map<String, Object> out = parse(s.json());
    List<?> kept = (List<?>) out.get("rows");
    assertThat(kept).hasSize(keptSeen[0]).hasSizeBetween(20, 30);
    assertThat(((Map<?, ?>) kept.get(kept.size() - 1)).get("n")).isEqualTo((long) kept.size() - 1);
    assertThat(out).containsEntry("next", "c" + kept.size());
    assertThat((Map<String, Object>) out.get("cut")).containsEntry("rows_kept", (long) kept.size())
        .containsEntry("rows_left_out", 100L - kept.size()).containsEntry("rows_rest", "after=c" + kept.size());
    assertThat(s.note()).startsWith("; CUT: the answer's budget (max_tokens=1000) kept " + kept.size() + " of 100 rows");
  }

  @Test
  void withoutAWayToPageTheRestIsALargerBudget() throws Exception {
    List<Object> services = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      services.add(Tree.obj("service", "svc-" + i + "-" + "z".repeat(80)));
    }
    Budget.Shaped s = Budget.shape(Tree.obj("services", services), new Budget.Limits(500, 0), "services", null);
    assertThat(s.note()).matches("; CUT: the answer's budget \\(max_tokens=500\\) kept \\d+ of 50 services; "
        + "call again with max_tokens=\\d+ for all of it");
    assertThat(Budget.shape(Tree.obj("services", services), new Budget.Limits(0, 0), "services", null).note())
        .as("0 is no budget").isEmpty();
  }

  @Test
  void oneEntryAlwaysStaysEvenIfItAloneIsOverTheBudget() throws Exception {
    Budget.Shaped s = Budget.shape(Tree.obj("rows", new ArrayList<>(List.of(Tree.obj("t", "w".repeat(5000)),
        Tree.obj("t", "v")))), new Budget.Limits(100, 0), "rows", null);
    assertThat((List<?>) parse(s.json()).get("rows")).hasSize(1);
  }

  @Test
  void theBudgetArgumentsAreTakenOutAndCheckedByName() throws Exception {
    Map<String, Object> args = new HashMap<>(Map.of("signal", "logs", "max_tokens", 2000L, "max_value_chars", 0L));
    assertThat(Budget.take(args)).isEqualTo(new Budget.Limits(2000, 0));
    assertThat(args).containsOnlyKeys("signal");
    assertThat(Budget.take(new HashMap<>())).isEqualTo(Budget.Limits.DEFAULT);
    assertThatThrownBy(() -> Budget.take(new HashMap<>(Map.of("max_tokens", "many"))))
        .isInstanceOf(Tools.Refusal.class).hasMessageContaining("\"max_tokens\" must be a whole number");
    assertThatThrownBy(() -> Budget.take(new HashMap<>(Map.of("max_value_chars", -1L))))
        .isInstanceOf(Tools.Refusal.class).hasMessageContaining("max_value_chars");
  }
}
