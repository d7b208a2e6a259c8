package mira.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import mira.server.testing.TestPki;
import mira.server.testing.TestPki.KeyForm;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every key form Mira promises to read, and the refusals that name the file. */
class PemTest {
  @TempDir static Path dir;
  static TestPki pki;

  @BeforeAll
  static void ca() throws Exception {
    pki = new TestPki(dir, "pem-ca");
  }

  private static ServerTls.Material load(TestPki.Leaf l) throws Exception {
    return new ServerTls(l.chain(), l.key(), Optional.empty()).load();
  }

  @Test
  void rsaKeysInPkcs8AndPkcs1Load() throws Exception {
    assertThat(load(pki.leaf("rsa8", "RSA", KeyForm.PKCS8)).key().getAlgorithm()).isEqualTo("RSA");
    TestPki.Leaf pkcs1 = pki.leaf("rsa1", "RSA", KeyForm.PKCS1_RSA);
    assertThat(Files.readString(pkcs1.key())).startsWith("-----BEGIN RSA PRIVATE KEY-----");
    ServerTls.Material m = load(pkcs1);
    assertThat(m.key().getAlgorithm()).isEqualTo("RSA");
    assertThat(m.chain()).hasSize(2);
    assertThat(m.describe()).contains("CN=rsa1");
  }

  @Test
  void ecKeysInPkcs8AndSec1Load() throws Exception {
    assertThat(load(pki.leaf("ec8", "EC", KeyForm.PKCS8)).key().getAlgorithm()).isEqualTo("EC");
    TestPki.Leaf sec1 = pki.leaf("ec1", "EC", KeyForm.SEC1_EC);
    assertThat(Files.readString(sec1.key())).startsWith("-----BEGIN EC PRIVATE KEY-----");
    assertThat(load(sec1).key().getAlgorithm()).isEqualTo("EC");
  }

  @Test
  void aKeyOfAnotherCertificateIsRefusedNamingTheKeyFile() throws Exception {
    TestPki.Leaf a = pki.leaf("a", "EC", KeyForm.PKCS8);
    TestPki.Leaf b = pki.leaf("b", "EC", KeyForm.PKCS8);
    assertThatThrownBy(() -> new ServerTls(a.chain(), b.key(), Optional.empty()).load())
        .isInstanceOf(BadTlsFile.class).hasMessageStartingWith(b.key().toString())
        .hasMessageContaining("does not belong");
  }

  @Test
  void filesThatAreNotPemAreRefusedNamingThem() throws Exception {
    TestPki.Leaf a = pki.leaf("c", "RSA", KeyForm.PKCS8);
    Path junk = Files.writeString(dir.resolve("junk.pem"), "not a certificate\n");
    assertThatThrownBy(() -> new ServerTls(junk, a.key(), Optional.empty()).load())
        .hasMessage(junk + ": no PEM CERTIFICATE block");
    assertThatThrownBy(() -> new ServerTls(a.chain(), junk, Optional.empty()).load())
        .hasMessageStartingWith(junk + ": no PEM PRIVATE KEY");
    Path encrypted = Files.writeString(dir.resolve("enc.pem"),
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----\n");
    assertThatThrownBy(() -> new ServerTls(a.chain(), encrypted, Optional.empty()).load())
        .hasMessageContaining("encrypted");
    assertThatThrownBy(() -> new ServerTls(a.chain(), a.key(), Optional.of(dir.resolve("absent.pem"))).load())
        .hasMessage(dir.resolve("absent.pem") + ": no such file");
  }
}
