package mira.alert;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * A KYAML document read strictly, as the main config is: mappings, sequences and double-quoted
 * strings only. A plain or single-quoted scalar is refused (YAML parsers disagree on what
 * {@code no}, {@code 0x1f} or {@code 1e3} mean), as is a key given twice. Keys may be plain.
 */
final class Kyaml {
  private Kyaml() {}

  /** A value and where it was written ({@code file:line:column}). */
  sealed interface Value permits Obj, Seq, Str {
    String at();
  }

  /** A mapping, in file order. */
  record Obj(Map<String, Value> entries, Map<String, String> keyAt, String at) implements Value {}

  record Seq(List<Value> items, String at) implements Value {}

  record Str(String value, String at) implements Value {}

  /**
   * Reads {@code text}; {@code name} (the file) prefixes every position.
   *
   * @throws RulesException if the text is not KYAML or breaks the strict rules; the message says where
   */
  static Value read(String name, String text) throws RulesException {
    LoadSettings settings = LoadSettings.builder().setLabel(name).setAllowDuplicateKeys(true).build();
    Optional<Node> root;
    try {
      root = new Composer(settings, new ParserImpl(settings, new StreamReader(settings, text))).getSingleNode();
    } catch (MarkedYamlEngineException e) {
      throw new RulesException(name + at(e.getProblemMark()) + ": not valid KYAML: " + e.getProblem());
    } catch (YamlEngineException e) {
      throw new RulesException(name + ": not valid KYAML: " + e.getMessage());
    }
    if (root.isEmpty()) {
      throw new RulesException(name + ": empty; a rules file is a mapping {rules: [...], targets: [...]}");
    }
    return convert(name, root.get());
  }

  private static Value convert(String name, Node n) throws RulesException {
    String at = name + at(n.getStartMark());
    return switch (n) {
      case ScalarNode s -> {
        if (s.getScalarStyle() != ScalarStyle.DOUBLE_QUOTED) {
          throw new RulesException(at + ": " + shown(s) + " is unquoted; every value must be a double-quoted string (\""
              + s.getValue() + "\")");
        }
        yield new Str(s.getValue(), at);
      }
      case SequenceNode q -> {
        List<Value> items = new ArrayList<>(q.getValue().size());
        for (Node item : q.getValue()) {
          items.add(convert(name, item));
        }
        yield new Seq(items, at);
      }
      case MappingNode m -> {
        Map<String, Value> entries = new LinkedHashMap<>();
        Map<String, String> keyAt = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
          if (!(t.getKeyNode() instanceof ScalarNode k)) {
            throw new RulesException(name + at(t.getKeyNode().getStartMark()) + ": a key must be a plain name");
          }
          String where = name + at(k.getStartMark());
          if (entries.containsKey(k.getValue())) {
            throw new RulesException(where + ": key " + k.getValue() + " is given twice");
          }
          entries.put(k.getValue(), convert(name, t.getValueNode()));
          keyAt.put(k.getValue(), where);
        }
        yield new Obj(entries, keyAt, at);
      }
      default -> throw new RulesException(at + ": anchors, aliases and tags are not KYAML");
    };
  }

  private static String at(Optional<Mark> mark) {
    return mark.map(m -> ":" + (m.getLine() + 1) + ":" + (m.getColumn() + 1)).orElse("");
  }

  private static String shown(ScalarNode s) {
    return s.getScalarStyle() == ScalarStyle.SINGLE_QUOTED ? "'" + s.getValue() + "'"
        : s.getValue().isEmpty() ? "an empty value" : s.getValue();
  }
}
