package mira.server.launch;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The build's version, from a resource Maven filters at build time. */
public final class Version {
  private Version() {}

  public static String current() {
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
