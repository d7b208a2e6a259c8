package mira.query.result;

/**
 * A query that cannot be answered as asked: a document that does not parse, a key the endpoint
 * does not implement, a value out of range, a malformed id or cursor. The message names what was
 * wrong and is meant for the caller (an HTTP 400 body). Carries no stack trace: bad input is an
 * expected outcome, not a fault.
 */
public class QueryException extends Exception {
  public QueryException(String message) {
    super(message, null, false, false);
  }
}
