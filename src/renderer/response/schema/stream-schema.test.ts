import { describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES, readStreamFrame, recordIdOf } from './stream-schema.ts';

describe('readStreamFrame', () => {
  it('reads each message the protocol defines', () => {
    expect(readStreamFrame('{"type":"subscribed","id":"s1","seq":3}')).toEqual({ type: 'subscribed', id: 's1', seq: 3, truncated: false });
    expect(readStreamFrame('{"type":"event","subscription":"s1","event":"deleted","seq":4,"record":{"id":2}}')).toEqual({
      type: 'event',
      subscription: 's1',
      event: 'deleted',
      namespace: '',
      seq: 4,
      at: '',
      record: { id: 2 },
      summarized: null,
    });
    expect(readStreamFrame('{"type":"pong"}')).toEqual({ type: 'pong' });
    expect(readStreamFrame('{"type":"unsubscribed","id":"s1"}')).toEqual({ type: 'unsubscribed', id: 's1' });
    expect(readStreamFrame('{"type":"error","id":"s2","error":{"code":"forbidden","message":"no"}}')).toEqual({ type: 'error', id: 's2', error: { code: 'forbidden', message: 'no' } });
    expect(readStreamFrame('{"type":"authenticated","user":{"id":1,"username":"ad\\u202Emin"}}')).toEqual({ type: 'authenticated', username: 'admin' });
  });

  it('names what it cannot read: binary, not JSON, not a message', () => {
    expect(readStreamFrame({ binaryBytes: 4 })).toEqual({ type: 'unreadable', sentence: 'The server sent a binary frame (4 B), not text: it is ignored.' });
    expect(readStreamFrame('not json')).toMatchObject({ type: 'unreadable', sentence: expect.stringContaining('not JSON') });
    expect(readStreamFrame('[1]')).toMatchObject({ type: 'unreadable', sentence: expect.stringContaining('not a stream message') });
    expect(readStreamFrame('{"type":"subscribed","id":"s1","seq":-1}')).toMatchObject({ type: 'unreadable' });
    expect(readStreamFrame('{"type":"event","subscription":7,"seq":"x"}')).toMatchObject({ type: 'unreadable', sentence: expect.stringContaining('of type "event"') });
  });

  it('summarizes a frame over 1 MiB: the envelope stays, the record does not (issue 22.7)', () => {
    const frame = JSON.stringify({ type: 'event', subscription: 's1', event: 'created', namespace: 'a.B', seq: 9, at: '', record: { id: 5, body: 'x'.repeat(MAX_FRAME_BYTES) } });
    const read = readStreamFrame(frame);
    expect(read).toMatchObject({ type: 'event', seq: 9, record: { id: 5 }, summarized: expect.stringContaining('over the 1.0 MB') });
  });

  it('shows an object id as its JSON, never through String() (issue 22.11)', () => {
    const id = { toString: 1, valueOf: 1 };
    expect(recordIdOf({ id })).toBe('{"toString":1,"valueOf":1}');
    expect(recordIdOf({ id: 3 })).toBe(3);
    expect(recordIdOf({ id: 'm7' })).toBe('m7');
    expect(recordIdOf([1])).toBeNull();
    expect(recordIdOf({ title: 'x' })).toBeNull();
  });
});
