package mira.bench.telemetry;

import java.util.SplittableRandom;

/** Text that reads like what services write: prose for GenAI prompts, exceptions, stack traces. */
final class Texts {
  private Texts() {}

  private static final String[] WORDS = {
    "the", "order", "customer", "shipping", "delivery", "return", "refund", "policy", "item", "size",
    "colour", "price", "discount", "voucher", "account", "password", "address", "invoice", "warehouse",
    "available", "stock", "tomorrow", "week", "express", "standard", "please", "could", "would", "you",
    "check", "status", "of", "my", "and", "to", "for", "with", "a", "is", "was", "not", "yet", "arrived",
    "payment", "card", "declined", "again", "help", "recommend", "similar", "cheaper", "jacket", "shoes",
    "waterproof", "hiking", "running", "winter", "summer", "gift", "wrapping", "loyalty", "points",
    "balance", "expire", "tracking", "number", "courier", "parcel", "damaged", "replacement", "exchange",
    "because", "however", "therefore", "which", "that", "this", "it", "they", "we", "can", "will", "be",
    "in", "on", "at", "from", "by", "as", "are", "have", "has", "been", "your", "our", "their", "days",
  };

  /** A system prompt every assistant conversation starts with, as real applications send it. */
  static final String SYSTEM_PROMPT = "You are the shop's customer assistant. Answer only questions about orders,"
      + " deliveries, returns, payments and products sold by the shop. Use the tools to look up orders; never"
      + " invent an order number, a price or a delivery date. If the customer is upset, apologise once and"
      + " offer a concrete next step. Reply in the customer's language, in at most five short paragraphs.\n";

  /**
   * Prose of {@code min} to {@code max} characters (ASCII, so also bytes): sentences of seeded words,
   * after {@code prefix}.
   */
  static String prose(SplittableRandom rnd, String prefix, int min, int max) {
    int target = min + rnd.nextInt(max - min + 1);
    StringBuilder b = new StringBuilder(target + 64).append(prefix);
    while (b.length() < target) {
      int words = 6 + rnd.nextInt(14);
      for (int w = 0; w < words; w++) {
        String word = WORDS[rnd.nextInt(WORDS.length)];
        if (w == 0) {
          b.append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
        } else {
          b.append(' ').append(word);
        }
      }
      b.append(rnd.nextInt(8) == 0 ? "?\n" : ". ");
    }
    b.setLength(target);
    return b.toString();
  }

  /** An exception a service may throw: its type, a message, and whether it is a timeout. */
  record Failure(String type, String message, boolean timeout) {}

  static Failure failure(SplittableRandom rnd, String database, String downstream, boolean incident) {
    int k = rnd.nextInt(incident ? 3 : 6);
    return switch (k) {
      case 0 -> new Failure("java.net.SocketTimeoutException",
          "Read timed out after " + (2000 + 1000 * rnd.nextInt(4)) + " ms calling " + downstream, true);
      case 1 -> database == null
          ? new Failure("io.grpc.StatusRuntimeException", "DEADLINE_EXCEEDED: deadline exceeded after 2.99"
              + rnd.nextInt(10) + "s", true)
          : new Failure("java.sql.SQLTransientConnectionException", "HikariPool-1 - Connection is not available,"
              + " request timed out after 30000ms (" + database + ", active=20, idle=0, waiting=" + rnd.nextInt(90)
              + ")", true);
      case 2 -> new Failure("io.grpc.StatusRuntimeException", "UNAVAILABLE: upstream connect error or"
          + " disconnect/reset before headers. reset reason: connection failure (" + downstream + ")", false);
      case 3 -> new Failure("java.lang.IllegalStateException", "order " + (100_000 + rnd.nextInt(900_000))
          + " is already closed", false);
      case 4 -> new Failure("java.lang.NullPointerException", "Cannot invoke \"com.shop.cart.Item.price()\""
          + " because \"item\" is null", false);
      default -> new Failure("java.lang.IllegalArgumentException", "currency code must have 3 letters, got '"
          + (char) ('a' + rnd.nextInt(26)) + "'", false);
    };
  }

  /** A Java stack trace of 8 to 20 frames for {@code f}, thrown in {@code service}. */
  static String stackTrace(SplittableRandom rnd, Failure f, String service) {
    String pkg = "com.shop." + service.replace("-", "");
    String[] classes = {"Controller", "Service", "Repository", "Client", "Handler", "Mapper"};
    String[] methods = {"handle", "process", "load", "charge", "find", "apply", "call", "execute"};
    StringBuilder b = new StringBuilder(1024).append(f.type()).append(": ").append(f.message()).append('\n');
    int frames = 8 + rnd.nextInt(13);
    for (int i = 0; i < frames; i++) {
      String cls = classes[rnd.nextInt(classes.length)];
      String prefix = Character.toUpperCase(service.charAt(0)) + service.substring(1).replace("-", "");
      b.append("\tat ").append(pkg).append('.').append(prefix).append(cls).append('.')
          .append(methods[rnd.nextInt(methods.length)]).append('(').append(prefix).append(cls).append(".java:")
          .append(20 + rnd.nextInt(400)).append(")\n");
    }
    b.append("\tat java.base/java.lang.Thread.run(Thread.java:1583)\n");
    return b.toString();
  }
}
