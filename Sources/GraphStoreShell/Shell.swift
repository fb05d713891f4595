import GraphStore
