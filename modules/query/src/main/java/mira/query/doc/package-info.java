/**
 * The query grammar: query and series documents, terms, times and cursors, parsed with Jackson's
 * streaming parser into immutable records.
 *
 * <p>Invariant: the grammar is closed — every key a document may hold is listed, and any other is
 * refused by name, so a misspelling can never widen a query.
 */
package mira.query.doc;
