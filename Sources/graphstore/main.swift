print("graphstore")
