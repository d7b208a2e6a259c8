package mira.proto.json;
final class Placeholder {}
