package mira.query.doc;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import mira.query.result.QueryException;

/** Parses and checks the functions keys of a series document ({@code step fn quantile group_by agg}). */
final class SeriesFns {
  /** More steps than this in one window is a mistyped step, not a chart. */
  static final long MAX_STEPS = 100_000;

  private SeriesFns() {}

  static double quantile(JsonParser p) throws IOException, QueryException {
    if (!p.currentToken().isNumeric()) {
      throw new QueryException("quantile: expected a number in [0, 1]");
    }
    return p.getDoubleValue();
  }

  static List<String> keys(JsonParser p) throws IOException, QueryException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new QueryException("group_by: expected an array of attribute keys");
    }
    List<String> out = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() != JsonToken.VALUE_STRING || p.getText().isEmpty()) {
        throw new QueryException("group_by[" + out.size() + "]: expected a non-empty attribute key");
      }
      out.add(p.getText());
      if (out.size() > Documents.MAX_TERMS) {
        throw new QueryException("group_by: more than " + Documents.MAX_TERMS + " keys");
      }
    }
    return out;
  }

  /** Null when none of the keys is given (raw points). */
  static SeriesFn resolve(String step, String fn, double quantile, List<String> groupBy, String agg, Window w)
      throws QueryException {
    if (step == null && fn == null && groupBy == null && agg == null && Double.isNaN(quantile)) {
      return null;
    }
    if (step == null) {
      throw new QueryException("step: required with fn, group_by or agg (a duration such as \"30s\" or \"1m\")");
    }
    long ns = duration(step);
    if ((w.to() - w.from()) / ns >= MAX_STEPS) {
      throw new QueryException("step: \"" + step + "\" cuts the window into more than " + MAX_STEPS + " steps");
    }
    if (fn == null) {
      throw new QueryException("fn: required with step; one of " + SeriesFn.FNS);
    }
    if (!SeriesFn.FNS.contains(fn)) {
      throw new QueryException("fn: \"" + fn + "\" is not a function; use one of " + SeriesFn.FNS);
    }
    if (fn.equals("quantile")) {
      if (Double.isNaN(quantile)) {
        throw new QueryException("quantile: required with fn \"quantile\" (0.99 for the p99)");
      }
      if (quantile < 0 || quantile > 1) {
        throw new QueryException("quantile: " + quantile + " is outside [0, 1]");
      }
    } else if (!Double.isNaN(quantile)) {
      throw new QueryException("quantile: only with fn \"quantile\", not \"" + fn + "\"");
    }
    String a = agg == null ? "sum" : agg;
    if (!SeriesFn.AGGS.contains(a)) {
      throw new QueryException("agg: \"" + a + "\" is not an aggregation; use one of " + SeriesFn.AGGS);
    }
    return new SeriesFn(ns, fn, quantile, groupBy, a);
  }

  /** A positive duration: digits then ms, s, m, h or d. */
  static long duration(String s) throws QueryException {
    long ns = Times.duration(s);
    if (ns <= 0) {
      throw new QueryException("step: \"" + s + "\" is not a positive duration (digits then ms, s, m, h or d: \"1m\")");
    }
    return ns;
  }
}
