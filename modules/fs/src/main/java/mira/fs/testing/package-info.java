/** {@link mira.fs.testing.FaultyFs}: fails chosen calls and simulates a power cut. Tests only. */
package mira.fs.testing;
