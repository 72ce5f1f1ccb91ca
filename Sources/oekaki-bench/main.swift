import InkCore
print("oekaki-bench: not implemented yet")
