package mira.alert;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throwaway certificate authority made with the JDK's keytool: a CA, and a server certificate
 * for 127.0.0.1 and localhost signed by it. {@link #server} is the receiver's TLS context,
 * {@link #client} one that trusts the CA and nothing else.
 */
final class TestCa {
  private static final String PASS = "changeit";
  private final Path dir;

  private TestCa(Path dir) {
    this.dir = dir;
  }

  static TestCa create(Path dir) throws Exception {
    TestCa ca = new TestCa(dir);
    ca.keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=mira test CA",
        "-ext", "bc:c", "-validity", "2", "-keystore", "ca.p12");
    ca.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem");
    ca.keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
        "-validity", "2", "-keystore", "server.p12");
    ca.keytool("-certreq", "-alias", "server", "-keystore", "server.p12", "-file", "server.csr");
    ca.keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-infile", "server.csr", "-outfile",
        "server.pem", "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", "2");
    ca.keytool("-importcert", "-noprompt", "-alias", "ca", "-keystore", "server.p12", "-file", "ca.pem");
    ca.keytool("-importcert", "-alias", "server", "-keystore", "server.p12", "-file", "server.pem");
    ca.keytool("-importcert", "-noprompt", "-alias", "ca", "-keystore", "trust.p12", "-file", "ca.pem");
    return ca;
  }

  private void keytool(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("-storepass", PASS, "-keypass", PASS, "-storetype", "PKCS12"));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + out);
    }
  }

  private KeyStore load(String file) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(dir.resolve(file))) {
      ks.load(in, PASS.toCharArray());
    }
    return ks;
  }

  SSLContext server() throws Exception {
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(load("server.p12"), PASS.toCharArray());
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(kmf.getKeyManagers(), null, null);
    return c;
  }

  SSLContext client() throws Exception {
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(load("trust.p12"));
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(null, tmf.getTrustManagers(), null);
    return c;
  }
}
