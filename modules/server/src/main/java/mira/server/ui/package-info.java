/**
 * The browser UI's bundle, served from memory on the HTTP listener. Only the files the build listed
 * are served, so no request path ever reaches the filesystem; the bytes, their gzip form and their
 * ETags are computed once when the node starts and never change after.
 */
package mira.server.ui;
