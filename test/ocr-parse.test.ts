import { describe, expect, it } from 'vitest';
import { cleanAddress } from '../src/operations/ocr-idcard/address.js';
import { maskDocument } from '../src/operations/ocr-idcard/mask.js';
import {
  businessChecksumOk,
  findBusinessNumber,
  findDate,
  findLicenceNumber,
  findResidentNumber,
  findShortDate,
  residentChecksumOk,
} from '../src/operations/ocr-idcard/numbers.js';
import { nameFrom, withKnownSurname } from '../src/operations/ocr-idcard/parse-card.js';
import { parseDocument } from '../src/operations/ocr-idcard/parse.js';
import { normalizeDigits, respaceHangul } from '../src/operations/ocr-idcard/text.js';
import { mergeReadings, type VisionInfo } from '../src/operations/ocr-idcard/vision.js';

describe('check digits', () => {
  it('checks resident numbers with weights 2–9, 2–5', () => {
    expect(residentChecksumOk('900101-1234568')).toBe(true);
    expect(residentChecksumOk('900101-1234567')).toBe(false);
    expect(residentChecksumOk('9001011234568')).toBe(true);
    expect(residentChecksumOk('900101-123456')).toBe(false);
  });

  it('checks business numbers with weights 1,3,7,1,3,7,1,3,5 and the carry of the ninth digit', () => {
    expect(businessChecksumOk('124-81-00998')).toBe(true);
    expect(businessChecksumOk('124-81-00997')).toBe(false);
    expect(businessChecksumOk('1248100998')).toBe(true);
  });
});

describe('numbers and dates in OCR lines', () => {
  it('reads digits that OCR printed as look-alike letters', () => {
    expect(normalizeDigits('9OO1O1-l234568')).toBe('900101-1234568');
    expect(findResidentNumber('| 9OO1O1 - l234568 ;')).toBe('900101-1234568');
    expect(findBusinessNumber('등록번호 : 124-8l-OO998')).toBe('124-81-00998');
    expect(findLicenceNumber('11-19-12345B-78')).toBe('11-19-123458-78');
  });

  it('prefers the reading of a stray slash that makes the check digit hold', () => {
    // "7" misread as "/" (dropped) and a "/" inserted between two digits
    expect(findResidentNumber('5/1216-2866217')).toBe('571216-2866217');
    expect(findResidentNumber('770813-27/73549')).toBe('770813-2773549');
  });

  it('keeps a digit group apart from a speck read as a digit after it', () => {
    expect(findBusinessNumber('등 록 번호 : 209-79-78381 1')).toBe('209-79-78381');
  });

  it('gives every date format as YYYY.MM.DD.', () => {
    expect(findDate('2019. 1. 5.')).toBe('2019.01.05.');
    expect(findDate('2019.01.05.')).toBe('2019.01.05.');
    expect(findDate('개업연월일 : 2019 년 01 월 05 일')).toBe('2019.01.05.');
    expect(findDate('2019.13.05.')).toBeUndefined();
    // one dot lost under the guilloche
    expect(findDate('2005 9. 26.')).toBe('2005.09.26.');
    expect(findDate('2014 11..8')).toBeUndefined();
  });

  it('reads an issue date that lost its century only when no full date is there, never a future one', () => {
    expect(findShortDate('`0 ㅁ 20.07.28.', new Date('2026-01-01'))).toBe('2020.07.28.');
    expect(findShortDate('31.07.28.', new Date('2026-01-01'))).toBeUndefined();
    expect(findShortDate('2020.07.28.', new Date('2026-01-01'))).toBeUndefined();
    const card = ['주민등록증', '홍 길 동', '900101-1234568', '서울특별시 종로구 세종대로 209', '`0 ㅁ 20.07.28.', '서울특별시 종로구청장'];
    expect(parseDocument(card.join('\n'))?.info.issue_date).toBe('2020.07.28.');
  });
});

describe('Korean text clean-up', () => {
  it('re-joins syllables Tesseract spaced apart, but not real one-syllable words', () => {
    expect(respaceHangul('서울특별시 종로구 세 종 대 로 209')).toBe('서울특별시 종로구 세종대로 209');
    expect(respaceHangul('주식회사 하 늘 소 프트')).toBe('주식회사 하늘소프트');
    expect(respaceHangul('세종대 로 97')).toBe('세종대로 97');
    expect(respaceHangul('도매 및 소매업')).toBe('도매 및 소매업');
  });

  it('leaves an address open, with a warning to retake, when its last line read ends on a comma', () => {
    // The line after the comma (the unit, or the rest of the reference) was never read.
    expect(cleanAddress(['부산광역시 수영구 광안해변로 219,'])).toBe('부산광역시 수영구 광안해변로 219,');
    expect(cleanAddress(['대전광역시 유성구 대학로 99, 3 층 301 호 ( 궁 통 , ㅣ'])).toBe('대전광역시 유성구 대학로 99, 3층 301호 (궁동,');
    // Read whole, over two lines: closed as printed.
    expect(cleanAddress(['부산광역시 수영구 광안해변로 219,', '1203 호 (광안동)'])).toBe(
      '부산광역시 수영구 광안해변로 219, 1203호 (광안동)',
    );
    const text = [
      '주민등록증',
      '한지민 (韓智旻)',
      '900101-2345678',
      '부산광역시 수영구 광안해변로 219,',
      '2019. 5. 3.',
      '부산광역시 수영구청장',
    ];
    const parsed = parseDocument(text.join('\n'));
    expect(parsed?.info.address).toBe('부산광역시 수영구 광안해변로 219,');
    expect(parsed?.warnings).toContainEqual(expect.objectContaining({ field: 'address', code: 'LOW_CONFIDENCE' }));
  });

  it('rebuilds a road-name address and drops the specks around it', () => {
    expect(cleanAddress(['” 채 7 대 구 광역시 창원시 중앙로 109,', '( 102 동 1004 호 ㅣ'])).toBe(
      '대구광역시 창원시 중앙로 109, 102동 1004호',
    );
    expect(cleanAddress(['가인천광역시 강남구 번영로 108, 106 동 1603 호'])).toBe('인천광역시 강남구 번영로 108, 106동 1603호');
    expect(cleanAddress(['경기도 창원시 세 종 대 로 97. (둔산동) ㅣ 5'])).toBe('경기도 창원시 세종대로 97 (둔산동)');
    // 동 of the reference read as 통
    expect(cleanAddress(['광 주 광역시 마포구 번 영 로 34', '( 대 치 통 }'])).toBe('광주광역시 마포구 번영로 34 (대치동)');
    // 동 of the unit read as 농 between its two numbers
    expect(cleanAddress(['서 울 특 별시 수성구 올 림 픽 로 204. 111 농 2104 호'])).toBe('서울특별시 수성구 올림픽로 204, 111동 2104호');
    // the comma before a unit on the second line read as a dot
    expect(cleanAddress(['부산광역시 부산진구 중앙대로 78.', '、 .1901 호 (전포동)'])).toBe(
      '부산광역시 부산진구 중앙대로 78, 1901호 (전포동)',
    );
    // a speck glued to the 시·도 is dropped; a road named like a 시·도 (세종대로) is not a start
    expect(cleanAddress(['세 경기도 창원시 세 종 대 로 97 (둔산동)'])).toBe('경기도 창원시 세종대로 97 (둔산동)');
    expect(cleanAddress(['서울 종로구 세종대로 209', '( 세 종 로 )'])).toBe('서울 종로구 세종대로 209 (세종로)');
  });

  it('keeps a reference part cut off at the edge of a photo, completing only what is unambiguous', () => {
    expect(cleanAddress(['경기도 안양시 동안구 시민대로 112, 112동 902호 (관양동, 새빛아파!'])).toBe(
      '경기도 안양시 동안구 시민대로 112, 112동 902호 (관양동, 새빛아파트)',
    );
    expect(cleanAddress(['인천광역시 연수구 컨벤시아대로 165', '(송도동) 」'])).toBe('인천광역시 연수구 컨벤시아대로 165 (송도동)');
  });

  it('spells a word-initial 려/료/류 as 여/요/유 (두음 법칙), but not after a syllable OCR spaced off', () => {
    expect(cleanAddress(['제주특별자치도 안양시 력삼1길 12'])).toBe('제주특별자치도 안양시 역삼1길 12');
    expect(cleanAddress(['서울특별시 영등포구 여의대로 24 (려의도동)'])).toBe('서울특별시 영등포구 여의대로 24 (여의도동)');
    expect(cleanAddress(['서울특별시 종로구 종로 1 (리버빌딩)'])).toBe('서울특별시 종로구 종로 1 (리버빌딩)');
    expect(cleanAddress(['서울특별시 가산디지털1로', '(대 륭타운)'])).toBe('서울특별시 가산디지털1로 (대 륭타운)');
    // a speck read as a lone syllable with a double final is dropped, not glued to the road
    expect(cleanAddress(['대 구 광역시 창원시', '」 앉 중앙로 109, 102 동 1004 호'])).toBe('대구광역시 창원시 중앙로 109, 102동 1004호');
  });

  it('corrects misread 시·도 and 시·군·구 names against the real list, by the jamo that differ', () => {
    // 물/울 and 낳/남 differ by one jamo; the road name is kept as read, its number spacing fixed
    expect(cleanAddress(['서 물 특별시 강 낳 구 테 헤 란 로 22 길 12( 역 삼 동)'])).toBe('서울특별시 강남구 테헤란로22길 12 (역삼동)');
    expect(cleanAddress(['결 기도 수성구 은행나무길 150'])).toBe('경기도 수성구 은행나무길 150');
    expect(cleanAddress(['경강북도해운대구 올림픽로 315'])).toBe('경상북도 해운대구 올림픽로 315');
    expect(cleanAddress(['대전광역시 성남셔동문로 103'])).toBe('대전광역시 성남시 동문로 103');
    // a real name is never "corrected" into the 시·도's own (창원시 is not 경기도's, but it exists)
    expect(cleanAddress(['경기도 창원시 세종대로 97'])).toBe('경기도 창원시 세종대로 97');
    // specks between the 시·군·구 and the road go; after a village address's reference, too
    expect(cleanAddress(['제주특별자치도 포항시 의 ^ 중앙로 228, 106동 101호'])).toBe('제주특별자치도 포항시 중앙로 228, 106동 101호');
    expect(cleanAddress(['서 울 특 별시 가 산 디 지 털 1 로', '( 대 륭 테 크 노 타 운 18 차 ) / 7'])).toBe(
      '서울특별시 가산디지털1로 (대 륭테크노타운 18 차)',
    );
    // two-syllable names are too close to each other to guess
    expect(cleanAddress(['부산광역시 둥구 중앙로 1'])).toBe('부산광역시 둥구 중앙로 1');
  });

  it('corrects a misread 시·군·구 to one of the 시·도 read before one of another 시·도', () => {
    // "주서구": 수성구 (대구) is two jamo away, 서구 a whole syllable; but 광주광역시 has a 서구 and no 수성구
    expect(cleanAddress(['광 광역시 주 서구 상 무 중앙로 157,', '101 호 (치평동)'])).toBe('광주광역시 서구 상무중앙로 157, 101호 (치평동)');
    expect(cleanAddress(['광주광역시 주서구 상무중앙로 157'])).toBe('광주광역시 서구 상무중앙로 157');
    // none of the 시·도's own is close: the nearest anywhere, as before
    expect(cleanAddress(['경기도 해운데구 해운대로 570'])).toBe('경기도 해운대구 해운대로 570');
  });
});

const RESIDENT_TEXT = [
  '그 드 그 :',
  '주민등록증',
  '홍 길 동 |',
  '" 900101-1234568 () :',
  '서 울 특별시 종로구 세 종 대 로 209',
  '(세종로)',
  '2019. 1. 5.',
  '서울특별시 종 로 구 청장',
].join('\n');
const LICENCE_TEXT = [
  '자 동 차 운 전 면허증',
  '1 종 보통',
  '< 11-19-123456-78',
  '9977 김 민 서',
  '매 900101-1234568',
  '경 "에 000 75 부 산 광역시 해운대구 해맞이로 12, 101 동 1203 호 :',
  '적 성 검 사 기 간 2029.01.01.~2029.12.31.',
  '개 2019.01.05.',
  '서울특별시경찰청장',
].join('\n');
const BUSINESS_TEXT = [
  '사 업 자 등 록 증',
  '( 법 인 사업자)',
  '등 록 번호 : 124-81-00998',
  '법 인 명 (단체명) : 주식회사 한 빛 소 프트',
  '대 표 자 : 이 서 준',
  '개업 연월 일: 2015 년 03 월 02 일',
  '사업장 소재지 : 경기도 성남시 분당구 판교역로 235, 3 층 (삼평동)',
  '사 업 의 종류 : 업태 정보통신업 종목 응용소프트웨어 개발 1',
  '발 급 사 유 : 신 규',
  '2015 년 03 월 05 일',
  '분 당 세 무 서 장',
].join('\n');

describe('parseDocument', () => {
  it('reads a resident registration card by line order and formats', () => {
    const parsed = parseDocument(RESIDENT_TEXT);
    expect(parsed?.info).toEqual({
      type: '주민등록증',
      name: '홍길동',
      id_number: '900101-1234568',
      representative: '',
      address: '서울특별시 종로구 세종대로 209 (세종로)',
      issue_date: '2019.01.05.',
      biz_type: '',
      biz_item: '',
    });
    expect(parsed?.warnings).toEqual([]);
  });

  it('reads a driver licence: the resident number as id_number, the licence number apart, not the renewal dates', () => {
    const parsed = parseDocument(LICENCE_TEXT);
    expect(parsed?.info).toMatchObject({
      type: '자동차운전면허증',
      name: '김민서',
      id_number: '900101-1234568',
      license_number: '11-19-123456-78',
      address: '부산광역시 해운대구 해맞이로 12, 101동 1203호',
      issue_date: '2019.01.05.',
      representative: '',
    });
  });

  it('reads a business certificate by its labels; issue_date is the opening date', () => {
    const parsed = parseDocument(BUSINESS_TEXT);
    expect(parsed?.info).toEqual({
      type: '사업자등록증',
      name: '주식회사 한빛소프트',
      id_number: '124-81-00998',
      representative: '이서준',
      // The floor is printed: it is kept (values never lose a printed part).
      address: '경기도 성남시 분당구 판교역로 235, 3층 (삼평동)',
      issue_date: '2015.03.02.',
      biz_type: '정보통신업',
      biz_item: '응용소프트웨어 개발',
    });
    expect(parsed?.warnings).toEqual([]);
  });

  it('warns, without failing, when a check digit does not hold or a field is missing', () => {
    const parsed = parseDocument(RESIDENT_TEXT.replace('900101-1234568', '900101-1234567').replace('2019. 1. 5.', ''));
    expect(parsed?.info.id_number).toBe('900101-1234567');
    expect(parsed?.warnings.map((w) => [w.field, w.code])).toEqual([
      ['issue_date', 'NOT_FOUND'],
      ['id_number', 'CHECKSUM_MISMATCH'],
    ]);
    const business = parseDocument(BUSINESS_TEXT.replace('124-81-00998', '124-81-00997'));
    expect(business?.warnings.map((w) => [w.field, w.code])).toEqual([['id_number', 'CHECKSUM_MISMATCH']]);
  });

  it('reads an old licence whose number starts with its region name, and masks its serial', () => {
    const text = [
      '자동차운전면허증',
      '충 남 15-188355-20',
      '1종 보통',
      '최민재',
      '510312-1544859',
      '대구광역시 달서구 월배로 362 (월성동)',
      '2015.11.18',
      '충남지방경찰청장',
    ];
    const parsed = parseDocument(text.join('\n'))!;
    expect(parsed.info).toMatchObject({ type: '자동차운전면허증', name: '최민재', license_number: '충남 15-188355-20' });
    expect(maskDocument(parsed.info, text.join('\n')).info.license_number).toBe('충남 15-******-20');
    // Without the resident number the name is still looked for above the address, not above the licence number.
    expect(parseDocument(text.filter((line) => !line.startsWith('5103')).join('\n'))?.info.name).toBe('최민재');
    // A speck read as a digit before the resident number is dropped when the check digit then holds.
    expect(parseDocument(text.join('\n').replace('510312-1544859', '3510312-1544859'))?.info.id_number).toBe('510312-1544859');
    expect(parseDocument(text.join('\n').replace('510312-1544859', '3510312-1544858'))?.info.id_number).not.toBe('510312-1544858');
  });

  it('reads a licence whose class boxes share the name line', () => {
    const text = [
      '자동차운전면허증',
      '11-19-123456-78',
      '김 민 서 | 1종보통 | | 2종소형 |',
      '900101-1234568',
      '서울특별시 종로구 세종대로 209',
      '2019.01.05.',
      '서울특별시경찰청장',
    ];
    const parsed = parseDocument(text.join('\n'));
    expect(parsed?.info).toMatchObject({ type: '자동차운전면허증', name: '김민서', license_number: '11-19-123456-78' });
  });

  it('reads an address line that starts with a speck read as ~ (not the renewal period)', () => {
    const text = [
      '자 동 차 운 전 면허증',
      '11-16-749775-21',
      '송 미 유',
      '780109-1306394',
      '~ 울 산 광역시 강남구 올 림 픽 로 152',
      '(우동)',
      '적 성 검 사 기 간 2026.01.01.~2026.12.31.',
      '2016.02.24. _',
      '대 구 과 역 시 경 찰 청 8 슨',
    ];
    expect(parseDocument(text.join('\n'))?.info).toMatchObject({
      address: '울산광역시 강남구 올림픽로 152 (우동)',
      issue_date: '2016.02.24.',
    });
  });

  it('never takes a misread issuer line after the issue date for the address', () => {
    const text = [
      '자 동 차 운 전 면허증',
      '16-20-409939-52',
      '(>) 권 호 준',
      '770216-2578896',
      '한 강 대로 130, 110 동 708 호',
      '적 성 검 사 기 간 2030.01.01.~2030.12.31.',
      '2020.09.22. _ ㅣ',
      '대 구 광 역 ㅅ 통',
    ];
    expect(parseDocument(text.join('\n'))?.info).toMatchObject({ name: '권호준', address: '', issue_date: '2020.09.22.' });
  });

  it('corrects a three-syllable name whose first syllable is one jamo off a family name, not two-syllable names', () => {
    expect(withKnownSurname('족성동')).toBe('조성동');
    expect(withKnownSurname('융동영')).toBe('윤동영');
    // a lost final first (장, not the commoner 조)
    expect(withKnownSurname('자영성')).toBe('장영성');
    expect(withKnownSurname('김민서')).toBe('김민서');
    expect(withKnownSurname('둘리')).toBe('둘리');
    expect(withKnownSurname('뷁민서')).toBe('뷁민서');
    // a speck with an opening parenthesis before the name does not swallow it
    expect(nameFrom('(> 김혜윤')).toBe('김혜윤');
    expect(nameFrom('홍 길 동 (洪吉')).toBe('홍길동');
    // specks of the portrait before the name: the run of syllables that starts with a family name
    expect(nameFrom('| | 제 / 윤 주 현')).toBe('윤주현');
    expect(nameFrom('| | 제 / 뷁 주 현')).toBeUndefined();
    // a dot glued to the last syllable
    expect(nameFrom('오 우 수.')).toBe('오우수');
  });

  it('knows a resident card without its title: the issuer line, an address and a resident-shaped number', () => {
    // the title lost to glare; the number's month (16) cannot exist, as on some sample cards
    const text = [
      'ㅁ ] 드',
      '박은영',
      '491614-4124423',
      '인 천 광 떡 시 광진구',
      '석 촌 호 수 022 거 리',
      '2021.05.03',
      '부 산 특별시 부 산 구청장 ,',
    ];
    const parsed = parseDocument(text.join('\n'));
    expect(parsed?.info).toMatchObject({
      type: '주민등록증',
      name: '박은영',
      address: '인천광역시 광진구 석촌호수 022 거리',
      issue_date: '2021.05.03.',
    });
    expect(
      parseDocument(['수 민 등 록 중', '홍 길 동 (※ 솜 깨 )', '800101-1234568', '서울특별시 금천구청장 [=] |)'].join('\n'))?.info.type,
    ).toBe('주민등록증');
  });

  it('reads an address over three lines, stopping at the date', () => {
    const text = [
      '주민등록증',
      '둘 리 ( 찬 뽀 )',
      '830422-1185600',
      '| 부천시 원미구 상 1 동',
      '412-3 번 지',
      '둘 리 의 거리',
      '2003.4.22',
      '경기도 부 천 시 장 _ 2!',
    ];
    expect(parseDocument(text.join('\n'))?.info).toMatchObject({
      name: '둘리',
      address: '부천시 원미구 상 1 동 412-3 번지 둘리의거리',
      issue_date: '2003.04.22.',
    });
  });

  it('reads a 1 misread as a stroke in numbered names, and 통 glued to the number as 동', () => {
    expect(cleanAddress(['서울특별시 강남구 역삼 ! 길 5'])).toBe('서울특별시 강남구 역삼1길 5');
    expect(cleanAddress(['성남시 분당구 정자 | 통 178-1'])).toBe('성남시 분당구 정자1동 178-1');
    // A real 통 stands apart after the 동, with its 반.
    expect(cleanAddress(['성남시 분당구 정자동 3통 2반'])).toBe('성남시 분당구 정자동 3통 2반');
  });

  it('passes over lines of digits alone inside an address, and reads a date whose dot was read as a colon', () => {
    const text = [
      '주민등록증',
      '김 하 늘',
      '900101-1234568',
      '경상북도 포항시 남구 중앙로 12,',
      '702',
      '글. 101 동 502 호',
      '2018: 5. 1.',
      '경상북도 포 항 시 장',
    ];
    expect(parseDocument(text.join('\n'))?.info).toMatchObject({
      address: '경상북도 포항시 남구 중앙로 12, 101동 502호',
      issue_date: '2018.05.01.',
    });
  });

  it('reads 업태 misread as 업타 in its bracketed box', () => {
    const text = ['사업자등록증', '등록번호 : 124-81-00998', '사 업 의 종 류 ：[ 업 타 ] 도매 [종목] 전 자 부 품'];
    expect(parseDocument(text.join('\n'))?.info).toMatchObject({ biz_type: '도매', biz_item: '전자부품' });
  });

  it('reads a 법인사업자 certificate with letter-spaced labels, values after colons, a wrapped address and 본점소재지', () => {
    const text = [
      '사 업 자 등 록 증',
      '( 법인사업자 )',
      '등 록 번 호 : 220-81-62517',
      '법인명(단제명) : 주식회사 청솔커뮤',
      '니케이션즈',
      // 대표자 read exactly wins over 대표자성명 read one syllable off ("대표자정성" for "대 표 자 : 정 성 …").
      '대 표 자 : 정 성 경',
      '개 업 연 월 일 : 2016 년 04 월 11 일',
      '법인등록번호 : 110111-5234567',
      '사업장소재지 : 인천광역시 연수구 컨벤시아대로 165, 12층 1203호',
      '(송도동, 미래타워)',
      '본점소재지 : 서울특별시 강남구 테헤란로 289 (역삼동)',
      '사업의 종류 : 업태 종목',
      '옴식점업 한식 일반 음식점업',
      '도매 및 소매업 전자상거래 소매업',
      '발 급 사 유 : 신규',
      '2019 년 05 월 02 일',
      '남인천세무서장',
    ];
    expect(parseDocument(text.join('\n'))?.info).toEqual({
      type: '사업자등록증',
      name: '주식회사 청솔커뮤 니케이션즈',
      id_number: '220-81-62517',
      representative: '정성경',
      address: '인천광역시 연수구 컨벤시아대로 165, 12층 1203호 (송도동, 미래타워)',
      issue_date: '2016.04.11.',
      biz_type: '음식점업, 도매 및 소매업',
      biz_item: '한식 일반 음식점업, 전자상거래 소매업',
    });
  });

  it('reads a 개인 certificate without colons, not taking the birth date for the opening date, nor a partner for the representative', () => {
    const text = [
      '사업자등록증',
      '(간이과세자)',
      '등록번호 450-01-35166',
      '상 호 우리들로지스틱스',
      '생 년 월 일 1968 년 03 월 14 일',
      '성 명 김한결 외 1명',
      '개업연월일 2003 년 04 월 07 일',
      '사업장소재지 광주광역시 서구 치평로 211, 1층 (치평동)',
      '업태 : 서비스업',
      '총목 : 경영 컨설팅업',
      '공동사업자 윤정우 (550524-2******)',
    ];
    expect(parseDocument(text.join('\n'))?.info).toMatchObject({
      name: '우리들로지스틱스',
      representative: '김한결',
      issue_date: '2003.04.07.',
      address: '광주광역시 서구 치평로 211, 1층 (치평동)',
      biz_type: '서비스업',
      biz_item: '경영 컨설팅업',
    });
  });

  it('reads labels printed apart from their values (a wide column gap cuts them onto lines of their own)', () => {
    const text = [
      '사 업 자 등 록 증',
      '( 법 인 사업자 )',
      '등 록 번호 :',
      '615-87-85684',
      '법 인 명 (단체명) : ( 주 ) 늘 푸 른 정밀',
      '대표자 :',
      '강지환',
      '개 업 연 월일 : 2005 년 03 월 18 일',
      '사 업 장 소재지 :',
      '대 구 광역시 달서구 달 구 벌 대로 163, 4 증 726 호 ( 감 삼동)',
      '본 점 소재지 :',
      '광 주 광역시 서구 무 진 대 로 379, 7 층 ( 농 성 동)',
      '사 업 의 종 류 : 업태',
      '종목 커피 전문점',
      '음식점업',
      '커피 전문점',
      '음식점업',
      '한식 일반 음식점업',
      '발 급 사유:',
      '정정',
    ];
    expect(parseDocument(text.join('\n'))?.info).toMatchObject({
      id_number: '615-87-85684',
      representative: '강지환',
      // 층 read as 증 after a number can only be 층.
      address: '대구광역시 달서구 달구벌대로 163, 4층 726호 (감삼동)',
      biz_type: '음식점업, 음식점업',
      biz_item: '커피 전문점, 커피 전문점, 한식 일반 음식점업',
    });
  });

  it('passes over lines of specks inside a field and drops specks after a value, a partner count misread too', () => {
    const text = [
      '사업자등록증',
      '등록번호 : 653-40-25913',
      '상호',
      '새 롬 물류',
      '성명',
      '전혜진 외 ] 명',
      '사 업 의 총류 : 업태 종목 : 는',
      ';',
      '부 통 산업 비주거용 건물 임대업 :',
      '서비스업 경영 컨 설 령 업 . 를',
      '글 | 발 급 사유: 정정',
    ];
    expect(parseDocument(text.join('\n'))?.info).toMatchObject({
      name: '새롬물류',
      representative: '전혜진',
      biz_type: '부동산업, 서비스업',
      biz_item: '비주거용 건물 임대업, 경영 컨설팅업',
    });
  });

  it('corrects a 업태 only when one known name is that close, and keeps an unknown one as read', () => {
    const text = (row: string) => ['사업자등록증', '등록번호 : 124-81-00998', `사업의 종류 : 업태 ${row} 종목 커피 전문점`].join('\n');
    expect(parseDocument(text('옴식점업'))?.info.biz_type).toBe('음식점업');
    expect(parseDocument(text('양봉업'))?.info.biz_type).toBe('양봉업');
  });

  it('finds no document in other text', () => {
    expect(parseDocument('오늘 점심 메뉴는 김치찌개\n회의는 3시에 시작합니다')).toBeUndefined();
    expect(parseDocument('')).toBeUndefined();
    expect(parseDocument('| = ~ ㅡ\n1 2 3')).toBeUndefined();
  });
});

describe('maskDocument', () => {
  it('hides the resident number tail and the licence serial in info and raw text, misread copies too', () => {
    const parsed = parseDocument(LICENCE_TEXT)!;
    const raw = `${LICENCE_TEXT}\n9OO1O1-l234568`;
    const { info, rawText } = maskDocument(parsed.info, raw);
    expect(info.id_number).toBe('900101-1******');
    expect(info.license_number).toBe('11-19-******-78');
    expect(info.name).toBe('김민서');
    expect(rawText).toContain('900101-1******');
    expect(rawText).toContain('11-19-******-78');
    expect(rawText).not.toMatch(/234568|123456/);
    expect(rawText).toContain('9OO1O1-l******');
  });

  it('leaves a business number alone', () => {
    const parsed = parseDocument(BUSINESS_TEXT)!;
    expect(maskDocument(parsed.info, BUSINESS_TEXT).info.id_number).toBe('124-81-00998');
  });
});

describe('mergeReadings (vision model + embedded engine)', () => {
  const vision = (fields: Partial<VisionInfo>): VisionInfo => ({
    type: '주민등록증',
    name: '홍길동',
    id_number: '900101-1234568',
    representative: '',
    address: '서울특별시 종로구 세종대로 209 (세종로)',
    issue_date: '2019.01.05.',
    biz_type: '',
    biz_item: '',
    license_number: '',
    ...fields,
  });

  it('keeps agreeing fields, lets check digits settle numbers, and flags other disagreements', () => {
    const ocr = parseDocument(RESIDENT_TEXT.replace('홍 길 동', '홍 갈 동'))!;
    const merged = mergeReadings(ocr, vision({ id_number: '900101-1234567', issue_date: '2019. 1. 5.' }), RESIDENT_TEXT)!;
    expect(merged.info.id_number).toBe('900101-1234568'); // the valid one wins
    expect(merged.info.name).toBe('홍길동'); // the model's reading, seen in the OCR text
    expect(merged.info.issue_date).toBe('2019.01.05.');
    expect(merged.warnings).toEqual([]);
    const disputed = mergeReadings(ocr, vision({ address: '서울특별시 중구 세종대로 110' }), RESIDENT_TEXT)!;
    expect(disputed.info.address).toBe('서울특별시 중구 세종대로 110');
    expect(disputed.warnings).toContainEqual(expect.objectContaining({ field: 'address', code: 'ENGINES_DISAGREE' }));
  });

  it('uses the model alone when the embedded engine found no document, and neither when the model says none', () => {
    expect(mergeReadings(undefined, vision({}), '')?.info.name).toBe('홍길동');
    expect(mergeReadings(undefined, vision({ type: 'none' }), '')).toBeUndefined();
  });
});
