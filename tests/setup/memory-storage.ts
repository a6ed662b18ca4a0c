/** The browser's localStorage / sessionStorage, in memory: the unit tests run in Node. */
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(name: string) {
    return this.items.get(name) ?? null;
  }
  setItem(name: string, value: string) {
    this.items.set(name, String(value));
  }
  removeItem(name: string) {
    this.items.delete(name);
  }
  clear() {
    this.items.clear();
  }
}
