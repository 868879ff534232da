{
  "targets": [
    {
      "target_name": "splice",
      "sources": ["src/splice.c", "src/accept.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "conditions": [["OS!='linux'", {"type": "none"}]]
    }
  ]
}
