{
  "targets": [
    {
      "target_name": "splice",
      "sources": ["src/splice.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "conditions": [["OS!='linux'", {"type": "none"}]]
    }
  ]
}
