package mira.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PeersTest {
  @Test
  void fixedEntriesAreAskedAsGivenEachOnce() {
    Peers p = Peers.parse(" 10.0.0.1:4318, [::1]:4318 ,10.0.0.1:4318,");
    assertThat(p.isEmpty()).isFalse();
    assertThat(p.addresses()).containsExactly("10.0.0.1:4318", "[::1]:4318");
    assertThat(Peers.parse("  ").isEmpty()).isTrue();
  }

  @Test
  void aMalformedEntryIsNamed() {
    assertThatThrownBy(() -> Peers.parse("a:1,b")).hasMessageContaining("\"b\" is not HOST:PORT");
    assertThatThrownBy(() -> Peers.parse("dns:svc:0")).hasMessageContaining("no port in 1..65535");
    assertThatThrownBy(() -> Peers.parse("[::1:80")).hasMessageContaining("malformed host");
  }

  @Test
  void aNameIsReResolvedAtMostEveryFiveSecondsAndAFailureKeepsTheLastAnswer() throws Exception {
    AtomicLong clock = new AtomicLong(0);
    AtomicInteger asked = new AtomicInteger();
    List<List<InetAddress>> answers = new ArrayList<>(List.of(
        List.of(InetAddress.getByName("127.0.0.2"), InetAddress.getByName("::1")),
        List.of(InetAddress.getByName("127.0.0.3"))));
    Peers p = Peers.parse("dns:mira-peers:4318,127.0.0.9:1", name -> {
      asked.incrementAndGet();
      assertThat(name).isEqualTo("mira-peers");
      if (answers.isEmpty()) {
        throw new UnknownHostException(name);
      }
      return answers.remove(0);
    }, clock::get);
    assertThat(p.addresses()).containsExactly("127.0.0.2:4318", "[0:0:0:0:0:0:0:1]:4318", "127.0.0.9:1");
    clock.set(Peers.RESOLVE_EVERY_NS - 1);
    assertThat(p.addresses()).containsExactly("127.0.0.2:4318", "[0:0:0:0:0:0:0:1]:4318", "127.0.0.9:1");
    assertThat(asked).hasValue(1);
    clock.set(Peers.RESOLVE_EVERY_NS);
    assertThat(p.addresses()).containsExactly("127.0.0.3:4318", "127.0.0.9:1");
    assertThat(p.errors()).isEmpty();
    clock.set(3 * Peers.RESOLVE_EVERY_NS);
    assertThat(p.addresses()).containsExactly("127.0.0.3:4318", "127.0.0.9:1");
    assertThat(p.errors()).singleElement().asString().startsWith("dns:mira-peers:4318: cannot resolve mira-peers");
    assertThat(asked).hasValue(3);
  }
}
