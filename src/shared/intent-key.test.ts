import { describe, expect, it } from 'vitest';
import { handlerNameOf, intentKey, intentOfHandler, snakeIntentOf } from './intent-key.ts';

describe('intentKey', () => {
  it('gives camelCase and snake_case spellings of an intent one camelCase key', () => {
    expect(intentKey('retrieve_one')).toBe('retrieveOne');
    expect(intentKey('retrieveOne')).toBe('retrieveOne');
    expect(intentKey('upload_package')).toBe('uploadPackage');
    expect(intentKey('create_folder_with_documents')).toBe('createFolderWithDocuments');
    expect(intentKey('count')).toBe('count');
    expect(intentKey('v2Upload')).toBe('v2Upload');
  });

  it('has no key for a name in neither form', () => {
    for (const name of ['UploadPackage', 'upload_Package', 'uploadPackage_', 'upload__package', '_upload', 'upload-package', 'upload package', 'upload_2', '', 'ünicode', 'a'.repeat(101)]) {
      expect(intentKey(name), name).toBeNull();
    }
  });

  it('maps keys and handler names one to one, so no two spellings reach one handler under two keys', () => {
    const names = ['upload', 'uploadPackage', 'getURL', 'v2Upload', 'addDocument2', 'a', 'retrieveOne'];
    for (const name of names) {
      const key = intentKey(name) as string;
      expect(intentKey(snakeIntentOf(key)), name).toBe(key);
      expect(intentOfHandler(handlerNameOf(key)), name).toBe(key);
    }
    expect(handlerNameOf('uploadPackage')).toBe('on_upload_package');
    expect(handlerNameOf(intentKey('getURL') as string)).toBe('on_get_u_r_l');
    expect(intentOfHandler('on_upload_2')).toBeNull();
    expect(intentOfHandler('upload')).toBeNull();
  });
});
