/**
 * Entities: the identity of what emitted a resource ({@code resources.key}, worked out at
 * ingest from the identifying attributes only), read from a block's resources table to select
 * rows by entity and to skip blocks that hold none of the entities asked for; and which identity
 * rule a resource's attributes satisfy ({@link mira.query.entity.Identity}).
 */
package mira.query.entity;
